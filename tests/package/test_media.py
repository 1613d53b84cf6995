"""Tests for the media helpers and the base64 check (``src/agentmsg/_media.py``)."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

from agentmsg import (
    MediaError,
    MessageError,
    Msg,
    block_from_bytes,
    block_from_file,
    block_from_url,
    detect_media_type,
)
from samples import GIF, JPEG, MP3, MP4, OGG, PNG, SVG, WAV, WEBM, WEBP, b64, base64_block


def image_at(url: str) -> Msg:
    """A user's message of one image block that names *url*."""
    return Msg("A", [{"type": "image", "source": {"type": "url", "url": url}}], "user")


def media_error(msg: Msg, **check: Any) -> MediaError:
    """The MediaError that ``msg.check_media(**check)`` raises."""
    with pytest.raises(MediaError) as info:
        msg.check_media(**check)
    return info.value


class TestDetectMediaType:
    """``detect_media_type``."""

    @pytest.mark.parametrize(
        ("data", "expected"),
        [
            (PNG, "image/png"),
            (JPEG, "image/jpeg"),
            (b"GIF87a" + bytes(8), "image/gif"),
            (GIF, "image/gif"),
            (WEBP, "image/webp"),
            (b"BM" + bytes(20), "image/bmp"),
            (SVG, "image/svg+xml"),
            (b"  <svg></svg>", "image/svg+xml"),
            (MP3, "audio/mpeg"),
            (b"\xff\xfb\x90\x00" + bytes(8), "audio/mpeg"),
            (WAV, "audio/wav"),
            (OGG, "audio/ogg"),
            (b"fLaC" + bytes(8), "audio/flac"),
            (b"\x00\x00\x00\x20ftypM4A " + bytes(8), "audio/mp4"),
            (MP4, "video/mp4"),
            (b"\x00\x00\x00\x14ftypqt  " + bytes(8), "video/quicktime"),
            (b"\x1aE\xdf\xa3" + bytes(8), "video/webm"),
            (b"RIFF\x00\x00\x00\x00AVI LIST", "video/x-msvideo"),
        ],
    )
    def test_known_formats(self, data, expected):
        """Each supported format is told by its leading bytes."""
        assert expected == detect_media_type(data)

    @pytest.mark.parametrize(
        "data", [b"", b"plain text", b"RIFF", b"RIFF\x00\x00\x00\x00XXXX", b"<html></html>"]
    )
    def test_unknown(self, data):
        """Bytes of no supported format give None."""
        assert None is detect_media_type(data)

    def test_bytearray_and_memoryview(self):
        """bytearray and memoryview are read like bytes."""
        assert ("image/png", "image/png") == (
            detect_media_type(bytearray(PNG)),
            detect_media_type(memoryview(PNG)),
        )

    def test_not_bytes(self):
        """A str raises MediaError rather than TypeError."""
        with pytest.raises(MediaError) as info:
            detect_media_type("\x89PNG")  # type: ignore[arg-type]

        assert "`data` must be bytes, not str: '\\x89PNG'." == str(info.value)


class TestBlockFromBytes:
    """``block_from_bytes``."""

    def test_detects_type(self):
        """The block kind and media type come from the bytes."""
        assert base64_block("image", "image/png", b64(PNG)) == block_from_bytes(PNG)

    def test_audio_and_video(self):
        """Audio and video bytes make audio and video blocks."""
        assert (["audio", "audio/mpeg"], ["video", "video/mp4"]) == tuple(
            [block["type"], block["source"]["media_type"]]
            for block in (block_from_bytes(MP3), block_from_bytes(MP4))
        )

    def test_declared_type_matching(self):
        """A media type that matches the bytes (or names the same format) is kept."""
        assert base64_block("image", "image/jpg", b64(JPEG)) == block_from_bytes(JPEG, "image/jpg")

    def test_declared_type_contradicts_bytes(self):
        """A media type that contradicts the bytes raises MediaError."""
        with pytest.raises(MediaError) as info:
            block_from_bytes(PNG, "image/jpeg")

        assert "`media_type` says 'image/jpeg', but the bytes are image/png." == str(info.value)

    def test_unknown_bytes(self):
        """Bytes of no supported format raise MediaError showing them."""
        with pytest.raises(MediaError) as info:
            block_from_bytes(b"hello world")

        assert (
            "Cannot tell the media type of the bytes: their first bytes b'hello wo' match no "
            "supported image, audio or video format."
        ) == str(info.value)

    def test_kind_is_enforced(self):
        """``kind`` insists on one kind of block, with or without a media type."""
        with pytest.raises(MediaError, match="`kind` is 'audio', but the bytes hold image/png"):
            block_from_bytes(PNG, kind="audio")
        with pytest.raises(MediaError, match="`kind` is 'audio', but `media_type` is"):
            block_from_bytes(PNG, "image/png", kind="audio")

    def test_kind_must_be_known(self):
        """An unknown kind raises MediaError."""
        with pytest.raises(MediaError, match=r"^`kind` must be one of 'image', 'audio', 'video'"):
            block_from_bytes(PNG, kind="picture")

    @pytest.mark.parametrize(("data", "media_type"), [("abc", None), (PNG, 5), (None, None)])
    def test_wrong_argument_types(self, data, media_type):
        """Non-bytes data or a non-string media type raise MediaError."""
        with pytest.raises(MediaError):
            block_from_bytes(data, media_type)

    def test_block_is_valid_content(self):
        """The block can be used in a message, and passes the media check."""
        msg = Msg("A", [block_from_bytes(GIF)], "user")

        assert None is msg.check_media()


class TestBlockFromFile:
    """``block_from_file``."""

    def test_reads_file(self, tmp_path):
        """The file's bytes become a base64 block."""
        path = tmp_path / "photo.png"
        path.write_bytes(PNG)

        assert base64_block("image", "image/png", b64(PNG)) == block_from_file(path)

    def test_str_path(self, tmp_path):
        """A str path works like a Path."""
        path = tmp_path / "sound.mp3"
        path.write_bytes(MP3)

        assert "audio" == block_from_file(str(path))["type"]

    def test_svg(self, tmp_path):
        """An SVG file becomes an image/svg+xml block."""
        path = tmp_path / "logo.svg"
        path.write_bytes(SVG)

        assert "image/svg+xml" == block_from_file(path)["source"]["media_type"]

    def test_extension_is_not_trusted(self, tmp_path):
        """The type comes from the bytes, not the name: a PNG named .jpg is a PNG."""
        path = tmp_path / "photo.jpg"
        path.write_bytes(PNG)

        assert "image/png" == block_from_file(path)["source"]["media_type"]

    def test_missing_file(self, tmp_path):
        """A missing file raises MediaError naming it."""
        path = tmp_path / "nope.png"

        with pytest.raises(MediaError) as info:
            block_from_file(path)

        assert (f"`path` names no file: {str(path)!r}.", "path") == (
            str(info.value),
            info.value.path,
        )

    def test_directory(self, tmp_path):
        """A directory raises MediaError saying it is not a regular file."""
        with pytest.raises(MediaError, match=r"^`path` must name a regular file, not a folder"):
            block_from_file(tmp_path)

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
    def test_pipe_is_not_read(self, tmp_path):
        """A named pipe with no writer is refused at once, not waited on."""
        pipe = tmp_path / "pipe.png"
        os.mkfifo(pipe)

        with pytest.raises(MediaError, match=r"^`path` must name a regular file"):
            block_from_file(pipe)

    def test_size_limit(self, tmp_path):
        """A file over *max_bytes* is refused; one of exactly *max_bytes* is read."""
        path = tmp_path / "photo.png"
        path.write_bytes(PNG)

        assert "image" == block_from_file(path, max_bytes=len(PNG))["type"]
        with pytest.raises(MediaError) as info:
            block_from_file(path, max_bytes=len(PNG) - 1)
        assert f"over the limit of {len(PNG) - 1:,} bytes" in str(info.value)

    def test_bytes_are_never_quoted(self, tmp_path):
        """The error for a file of no known format does not quote its bytes."""
        path = tmp_path / "secret.png"
        path.write_bytes(b"root:$6$salt$hash")

        with pytest.raises(MediaError) as info:
            block_from_file(path)

        assert "root:" not in str(info.value)

    @pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads all")
    def test_unreadable(self, tmp_path):
        """A file without read permission raises MediaError."""
        path = tmp_path / "secret.png"
        path.write_bytes(PNG)
        path.chmod(0)

        with pytest.raises(MediaError, match="cannot be read"):
            block_from_file(path)

    @pytest.mark.parametrize(("name", "data"), [("notes.txt", b"hello"), ("fake.png", b"text")])
    def test_unsupported_file(self, tmp_path, name, data):
        """A file of no supported format raises MediaError naming the file."""
        path = tmp_path / name
        path.write_bytes(data)

        with pytest.raises(MediaError) as info:
            block_from_file(path)

        assert str(info.value).startswith(f"Cannot tell the media type of file {str(path)!r}: ")

    def test_empty_file(self, tmp_path):
        """An empty file raises MediaError."""
        path = tmp_path / "empty.png"
        path.write_bytes(b"")

        with pytest.raises(MediaError, match="Cannot tell the media type"):
            block_from_file(path)

    def test_kind(self, tmp_path):
        """``kind`` rejects a file of another kind."""
        path = tmp_path / "clip.mp4"
        path.write_bytes(MP4)

        with pytest.raises(MediaError, match="holds video/mp4"):
            block_from_file(path, kind="image")

    def test_not_a_path(self):
        """A value that is not a path raises MediaError rather than TypeError."""
        with pytest.raises(MediaError, match=r"^`path` must be a str or os\.PathLike, not float"):
            block_from_file(3.5)  # type: ignore[arg-type]

    def test_bytes_path(self, tmp_path):
        """A bytes path is accepted as the operating system allows."""
        path = tmp_path / "p.gif"
        path.write_bytes(GIF)

        assert "image/gif" == block_from_file(os.fsencode(path))["source"]["media_type"]  # type: ignore[arg-type]


class TestBlockFromUrl:
    """``block_from_url``."""

    @pytest.mark.parametrize(
        ("url", "kind"),
        [
            ("https://example.com/cat.png", "image"),
            ("https://example.com/cat.JPEG?size=large#x", "image"),
            ("http://example.com/song.mp3", "audio"),
            ("https://example.com/clip.webm", "video"),
            ("data:audio/wav;base64,UklGRg==", "audio"),
        ],
    )
    def test_kind_from_url(self, url, kind):
        """The kind comes from the extension or the data: URL's media type."""
        assert {"type": kind, "source": {"type": "url", "url": url}} == block_from_url(url)

    def test_explicit_kind(self):
        """An explicit kind is used when the URL does not tell."""
        url = "https://example.com/render?id=3"

        assert {"type": "image", "source": {"type": "url", "url": url}} == block_from_url(
            url, kind="image"
        )

    def test_unknown_kind(self):
        """A URL whose kind cannot be told raises MediaError asking for ``kind``."""
        with pytest.raises(MediaError) as info:
            block_from_url("https://example.com/page")

        assert (
            "Cannot tell whether 'https://example.com/page' is an image, audio or video; "
            "pass `kind`."
        ) == str(info.value)

    @pytest.mark.parametrize("url", ["javascript:alert(1)//.png", "ftp://x/cat.png", "//x/a.png"])
    def test_bad_scheme(self, url):
        """Only http, https, data: and file:// URLs and local paths are accepted."""
        with pytest.raises(MessageError, match="must be an http or https URL"):
            block_from_url(url, kind="image")

    @pytest.mark.parametrize(
        ("url", "kind"),
        [
            ("file:///tmp/cat.png", "image"),
            ("/srv/clips/intro.mp4", "video"),
            ("./image.png", "image"),
            ("sounds/bell.mp3", "audio"),
        ],
    )
    def test_local_files(self, url, kind):
        """A file:// URL or a path, absolute or relative, makes a URL block kept as
        written; the kind comes from the extension, and nothing is read."""
        assert {"type": kind, "source": {"type": "url", "url": url}} == block_from_url(url)

    def test_not_a_string(self):
        """A non-string URL raises MediaError."""
        with pytest.raises(MediaError, match=r"^`url` must be a string, not 5\.$"):
            block_from_url(5)  # type: ignore[arg-type]

    def test_nothing_is_fetched(self, monkeypatch):
        """Building a URL block opens no connection."""
        import socket

        def refuse(*args, **kwargs):
            raise AssertionError("network use")

        monkeypatch.setattr(socket, "create_connection", refuse)
        monkeypatch.setattr(socket.socket, "connect", refuse)

        assert "image" == block_from_url("https://example.com/a.png")["type"]


class TestCheckMedia:
    """``Msg.check_media``: decoding payloads and comparing them with their media type."""

    def test_matching_payloads(self):
        """Payloads whose bytes match their media types pass."""
        content = [
            base64_block("image", "image/png", b64(PNG)),
            base64_block("audio", "audio/mp3", b64(MP3)),
            base64_block("video", "video/mp4", b64(MP4)),
            {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
        ]

        assert None is Msg("A", content, "user").check_media()

    @pytest.mark.parametrize(
        ("content", "path", "text"),
        [
            (
                [base64_block("image", "image/png", "not base64!")],
                "content[0].source.data",
                "is not valid base64: 'not base64!'.",
            ),
            (
                [{"type": "text", "text": "hi"}, base64_block("image", "image/gif", b64(PNG))],
                "content[1].source.media_type",
                "says 'image/gif', but the bytes are image/png.",
            ),
        ],
        ids=["invalid base64", "another format than declared"],
    )
    def test_bad_payload(self, content, path, text):
        """Text that is not base64, or bytes of another format than declared, raise
        MediaError naming the field."""
        with pytest.raises(MediaError) as info:
            Msg("A", content, "user").check_media()

        assert (path, f"`{path}` {text}") == (info.value.path, str(info.value))

    def test_unknown_bytes(self):
        """Bytes of no known format raise MediaError."""
        msg = Msg("A", [base64_block("image", "image/png", b64(b"plain text"))], "user")

        with pytest.raises(MediaError, match="match no supported format"):
            msg.check_media()

    def test_tool_output(self):
        """Media blocks inside a tool result are checked too."""
        output = [{"type": "text", "text": "chart"}, base64_block("image", "image/jpeg", b64(PNG))]
        block = {"type": "tool_result", "id": "1", "name": "plot", "output": output}

        with pytest.raises(MediaError) as info:
            Msg("A", [block], "user").check_media()

        assert "content[0].output[1].source.media_type" == info.value.path

    def test_local_files_are_read_inside_root(self, tmp_path):
        """Given a folder, check_media reads the local files inside it (absolute paths,
        file:// URLs, relative paths taken from the folder), also inside a tool output."""
        (tmp_path / "clips").mkdir()
        photo = tmp_path / "cat photo.png"
        photo.write_bytes(PNG)
        clip = tmp_path / "clips" / "clip.webm"
        clip.write_bytes(b"\x1aE\xdf\xa3" + bytes(8))  # WebM: sound or video
        output = [{"type": "image", "source": {"type": "url", "url": photo.as_uri()}}]
        content = [
            {"type": "image", "source": {"type": "url", "url": str(photo)}},
            {"type": "audio", "source": {"type": "url", "url": "clips/clip.webm"}},
            {"type": "video", "source": {"type": "url", "url": "./clips/../clips/clip.webm"}},
            {"type": "tool_result", "id": "1", "name": "snap", "output": output},
        ]
        msg = Msg("A", content, "user")

        assert None is msg.check_media(root=tmp_path)
        assert "clips/clip.webm" == msg.content[1]["source"]["url"]  # type: ignore[index]

    def test_without_root_no_file_is_read(self, tmp_path):
        """Without a folder, check_media opens no local file, whatever the message names."""
        sound = tmp_path / "bell.mp3"
        sound.write_bytes(MP3)  # not an image: reading it would fail
        urls = [str(sound), sound.as_uri(), "/etc/shadow", "/proc/self/environ", "a/b.png"]
        msg = Msg(
            "A", [{"type": "image", "source": {"type": "url", "url": u}} for u in urls], "user"
        )

        assert None is msg.check_media()

    def test_local_file_of_another_kind(self, tmp_path):
        """A local file whose bytes are not of the block's kind raises MediaError."""
        sound = tmp_path / "bell.mp3"
        sound.write_bytes(MP3)
        error = media_error(image_at(str(sound)), root=tmp_path)

        assert (
            "content[0].source.url",
            f"`content[0].source.url` must name a file of image data, but its bytes are "
            f"audio/mpeg: {str(sound)!r}.",
        ) == (error.path, str(error))

    @pytest.mark.parametrize(
        "url", ["/etc/shadow", "/proc/self/environ", "file:///etc/passwd", "../outside.png"]
    )
    def test_outside_root_is_not_opened(self, tmp_path, url):
        """A file outside the folder is refused without being opened: the error is the
        same whether or not it exists, and quotes nothing of it."""
        root = tmp_path / "root"
        root.mkdir()
        (tmp_path / "outside.png").write_bytes(PNG)
        error = media_error(image_at(url), root=root)

        assert (
            f"`content[0].source.url` names a file outside the folder given to check_media, "
            f"which is not read: {url!r}."
        ) == str(error)

    def test_a_link_out_of_root_is_not_followed(self, tmp_path):
        """A symbolic link inside the folder that leads out of it is refused."""
        root = tmp_path / "root"
        root.mkdir()
        secret = tmp_path / "secret.png"
        secret.write_bytes(PNG)
        try:
            (root / "link.png").symlink_to(secret)
        except OSError:
            pytest.skip("no symbolic links here")
        msg = image_at("link.png")

        with pytest.raises(MediaError, match="outside the folder"):
            msg.check_media(root=root)

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
    def test_a_pipe_is_not_waited_on(self, tmp_path):
        """A named pipe inside the folder is refused at once (it would block a read)."""
        os.mkfifo(tmp_path / "pipe.png")
        error = media_error(image_at("pipe.png"), root=tmp_path)

        assert (
            "`content[0].source.url` must name a regular file, not a folder, pipe or device: "
            "'pipe.png'."
        ) == str(error)

    def test_file_over_the_limit(self, tmp_path):
        """A file over *max_bytes* is refused without its bytes being quoted."""
        (tmp_path / "big.png").write_bytes(PNG + bytes(100))
        msg = image_at("big.png")

        assert None is msg.check_media(root=tmp_path, max_bytes=len(PNG) + 100)
        with pytest.raises(MediaError, match="over the limit of 50 bytes"):
            msg.check_media(root=tmp_path, max_bytes=50)

    def test_file_content_is_never_quoted(self, tmp_path):
        """A file of no known format: the error says so without quoting its bytes."""
        (tmp_path / "notes.png").write_bytes(b"password=hunter2")
        error = media_error(image_at("notes.png"), root=tmp_path)

        assert (
            "`content[0].source.url` must name a file of image data, but its bytes are of no "
            "supported format: 'notes.png'."
        ) == str(error)

    @pytest.mark.parametrize(
        ("url", "text"),
        [
            ("file:///a%00b", "names no valid file (a path cannot hold a NUL character)"),
            ("file:///a%ff.png", "names no valid file (its escapes are not UTF-8)"),
            ("file:///%ED%A0%80.png", "names no valid file (its escapes are not UTF-8)"),
        ],
    )
    def test_bad_file_urls(self, tmp_path, url, text):
        """A file URL whose escapes make no path gives MediaError, not ValueError."""
        error = media_error(image_at(url), root=tmp_path)

        assert f"`content[0].source.url` {text}: {url!r}." == str(error)

    @pytest.mark.parametrize(
        ("url", "text"),
        [
            ("{root}/no/such/photo.png", "names no file: '{root}/no/such/photo.png'."),
            (
                "file://{root}/no/such/photo.png",
                "names no file: 'file://{root}/no/such/photo.png'.",
            ),
            (
                "file://example.com/photo.png",
                "names a file on another host ('example.com'), which is not read: "
                "'file://example.com/photo.png'.",
            ),
        ],
    )
    def test_missing_or_remote_local_files(self, tmp_path, url, text):
        """A missing file inside the folder, or a file URL of another host, raises
        MediaError."""
        url = url.format(root=tmp_path)
        error = media_error(image_at(url), root=tmp_path)

        assert f"`content[0].source.url` {text.format(root=tmp_path)}" == str(error)

    @pytest.mark.parametrize("root", ["", 5, "a\0b"])
    def test_bad_root(self, root):
        """A root that is no folder name is refused."""
        with pytest.raises(MediaError) as info:
            Msg("A", "Hi", "user").check_media(root=root)

        assert "root" == info.value.path

    def test_tool_output_json_is_not_media(self):
        """A JSON tool output that merely contains 'image' is not checked as media."""
        output = [{"type": "image", "source": "somewhere"}, 3]
        block = {"type": "tool_result", "id": "1", "name": "f", "output": output}

        assert None is Msg("A", [block], "user").check_media()

    def test_data_url_base64(self):
        """A base64 data: URL is decoded and compared with its media type."""
        good = f"data:image/png;base64,{b64(PNG)}"
        bad = f"data:image/gif;base64,{b64(PNG)}"
        image = {"type": "image", "source": {"type": "url", "url": good}}

        assert None is Msg("A", [image], "user").check_media()
        image["source"]["url"] = bad  # type: ignore[index]
        with pytest.raises(MediaError) as info:
            Msg("A", [image], "user").check_media()
        assert "content[0].source.url" == info.value.path

    def test_data_url_percent_encoded(self):
        """A percent-encoded data: URL is decoded too."""
        url = "data:image/svg+xml,%3Csvg%20xmlns%3D%22http://www.w3.org/2000/svg%22/%3E"
        image = {"type": "image", "source": {"type": "url", "url": url}}

        assert None is Msg("A", [image], "user").check_media()

    def test_data_url_without_media_type(self):
        """A data: URL without a media type must hold bytes of the block's kind."""
        image = {"type": "image", "source": {"type": "url", "url": f"data:;base64,{b64(MP3)}"}}

        with pytest.raises(MediaError) as info:
            Msg("A", [image], "user").check_media()

        assert "`content[0].source.url` must hold image data, but its bytes are audio/mpeg." == str(
            info.value
        )


class TestSoundOrVideoContainers:
    """WebM, MP4 and Ogg hold sound alone or video: the bytes name the container, then
    the file extension or ``kind`` says which block it makes."""

    def test_bytes_alone_make_the_usual_kind(self):
        """Without a hint, WebM is a video and Ogg a sound."""
        assert "video/webm" == block_from_bytes(WEBM)["source"]["media_type"]
        assert "audio/ogg" == block_from_bytes(OGG)["source"]["media_type"]

    def test_kind_picks_the_other_kind(self):
        """``kind="audio"`` turns WebM bytes into an audio block of type audio/webm."""
        block = block_from_bytes(WEBM, kind="audio")

        assert ("audio", "audio/webm") == (block["type"], block["source"]["media_type"])

    def test_extension_picks_the_other_kind(self, tmp_path):
        """A ``.weba`` file of WebM bytes is audio; an ``.m4a`` file of MP4 bytes too."""
        weba = tmp_path / "voice.weba"
        weba.write_bytes(WEBM)
        m4a = tmp_path / "voice.m4a"
        m4a.write_bytes(MP4)

        assert "audio/webm" == block_from_file(weba)["source"]["media_type"]
        assert "audio/mp4" == block_from_file(m4a)["source"]["media_type"]

    def test_the_extension_cannot_contradict_the_bytes(self, tmp_path):
        """A ``.png`` file of WebM bytes is still a video: the bytes come first."""
        path = tmp_path / "looks_like.png"
        path.write_bytes(WEBM)

        assert "video/webm" == block_from_file(path)["source"]["media_type"]

    def test_check_media_accepts_either_kind_of_the_container(self):
        """audio/webm and video/webm both fit WebM bytes; audio/mpeg does not."""
        for media_type in ("audio/webm", "video/webm"):
            kind = media_type.partition("/")[0]
            Msg("a", [base64_block(kind, media_type, b64(WEBM))], "user").check_media()
        message = Msg("a", [base64_block("audio", "audio/mpeg", b64(WEBM))], "user")

        with pytest.raises(MediaError, match="but the bytes are video/webm"):
            message.check_media()
