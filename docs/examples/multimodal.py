"""
.. _tutorial-multimodal:

Multimodal content
==================

A message can do more than talk: next to text, its content may hold images, sound
recordings and videos. This tutorial builds such messages from real files,
from bytes already in memory and from URLs, then checks that the media are what they claim
to be, and shows what happens when they are not.

Each image, audio or video block has a *source* that tells where its bytes are. A
:class:`~agentmsg.Base64Source` carries the bytes inside the message as base64 text, with
their media type, such as ``image/png``. A :class:`~agentmsg.URLSource` only holds an
address; agentmsg never downloads it. The :ref:`tutorial-create-message` tutorial shows
how to write both by hand. Here, helper functions fill them in for you.
"""

# %%
# The sample files
# ----------------
#
# Three small files are shipped with this documentation, in a folder called ``media``
# next to this tutorial: ``icon.png``, a 16 by 16 picture of a blue disc on a yellow
# square; ``beep.wav``, a quarter of a second of an 880 Hz tone; and ``clip.mp4``, one
# second of a 32 by 32 test pattern made with `FFmpeg <https://ffmpeg.org>`_.
#
# If you downloaded this tutorial as a notebook or a script, the ``media`` folder is
# probably not beside it. The picture and the tone are simple enough to make again in a few
# lines of Python, so the next cell makes them again and writes them to a temporary folder. The
# video cannot be made that way; without the file, the video examples use a URL instead.

import io
import math
import struct
import tempfile
import wave
import zlib
from pathlib import Path


def make_icon(size=16):
    """Return a PNG of a blue disc on a yellow square."""
    blue, yellow = b"\x1f\x5f\xbf", b"\xff\xd4\x3b"
    middle, radius = (size - 1) / 2, size * 3 / 8
    rows = b"".join(
        b"\x00"  # each row of a PNG starts with a filter byte
        + b"".join(
            blue if (x - middle) ** 2 + (y - middle) ** 2 < radius**2 else yellow
            for x in range(size)
        )
        for y in range(size)
    )

    def chunk(kind, body):
        checksum = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + checksum

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def make_beep(seconds=0.25, pitch=880, rate=8000):
    """Return a WAV of a short tone: 8-bit mono samples."""
    samples = bytes(
        round(128 + 90 * math.sin(2 * math.pi * pitch * i / rate))
        for i in range(int(seconds * rate))
    )
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(samples)
    return buffer.getvalue()


media = Path("media")
if not (media / "icon.png").exists():
    media = Path(tempfile.mkdtemp()) / "media"
    media.mkdir()
    (media / "icon.png").write_bytes(make_icon())
    (media / "beep.wav").write_bytes(make_beep())

for path in sorted(media.iterdir()):
    print(f"{path.name:9} {path.stat().st_size:6,} bytes")

# %%
# Blocks from files
# -----------------
#
# :func:`agentmsg.block_from_file` reads a file and returns a complete image, audio or
# video block with the bytes encoded as base64. It recognises the format from the first
# bytes of the file rather than from its name, so the media type it writes is the real one.

from agentmsg import block_from_file, block_from_url

icon = block_from_file(media / "icon.png")
beep = block_from_file(media / "beep.wav")
if (media / "clip.mp4").exists():
    clip = block_from_file(media / "clip.mp4")
else:
    clip = block_from_url("https://example.com/media/clip.mp4")

for block in (icon, beep, clip):
    source = block["source"]
    if source["type"] == "base64":
        size = f"{len(source['data']):,} characters of base64"
        print(block["type"], source["media_type"], size)
    else:
        print(block["type"], source["url"])

# %%
# The blocks go into a message like any other content. Shown as the last line of a cell,
# the message appears as a chat card in which the picture, the tone and the video can be
# seen and played.

from agentmsg import Msg, TextBlock

postcard = Msg(
    name="Ada",
    role="user",
    content=[
        TextBlock(type="text", text="A logo, a notification sound and a clip."),
        icon,
        beep,
        clip,
    ],
)

postcard

# %%
# If you expect one kind of media only, pass ``kind``. The function then refuses a file of
# any other kind with :class:`agentmsg.MediaError`, a subclass of
# :class:`agentmsg.MessageError`. Its text says what the file really holds.

from agentmsg import MediaError

try:
    block_from_file(media / "beep.wav", kind="image")
except MediaError as error:
    print(error)

# %%
# Blocks from bytes
# -----------------
#
# When the bytes are already in memory, for example because they were just downloaded or
# drawn, :func:`agentmsg.block_from_bytes` does the same work without a file. Without a
# media type it recognises the format itself, exactly like
# :func:`agentmsg.detect_media_type` does.

from agentmsg import block_from_bytes, detect_media_type

png_bytes = make_icon()

print(detect_media_type(png_bytes))
print(detect_media_type(b"just some text"))

drawn = block_from_bytes(png_bytes)
print(drawn["type"], drawn["source"]["media_type"])
print("Same block as from the file:", drawn == icon)

# %%
# You may also state the media type yourself. It is then compared with the bytes, and a
# claim that does not match them is refused.

print(block_from_bytes(make_beep(), "audio/wav")["type"])

try:
    block_from_bytes(png_bytes, "image/jpeg")
except MediaError as error:
    print(error)

# %%
# Blocks from URLs
# ----------------
#
# :func:`agentmsg.block_from_url` builds a block whose source is an address. Nothing is
# fetched, not now and not later: the URL is passed on as it is, for a model or a browser
# to load. The kind of block comes from the extension at the end of the path.

print(block_from_url("https://example.com/photos/harbour.jpg"))
print(block_from_url("https://example.com/podcast/episode-12.mp3?download=1"))

# %%
# Some addresses have no extension. Then say which kind of media they hold with ``kind``;
# without it, the function cannot guess and asks for it.

print(block_from_url("https://example.com/stream/live", kind="video"))

try:
    block_from_url("https://example.com/stream/live")
except MediaError as error:
    print(error)

# %%
# A ``data:`` URL is a third way to pass small media: the bytes are written into the URL
# itself, after the media type. The kind of block then comes from that media type.

import base64

data_url = "data:image/png;base64," + base64.b64encode(png_bytes).decode("ascii")
inline = block_from_url(data_url)

print(inline["type"])
print(data_url[:60] + "...")

# %%
# Checking the media
# ------------------
#
# Building a message does not decode base64 data: a large video would make every message
# slow to build, and most of the time the data comes from a trusted helper anyway. When the
# bytes must be right, before they are sent to a model for instance, call
# :meth:`Msg.check_media <agentmsg.Msg.check_media>`. It decodes every base64 payload in the
# message and compares its first bytes with the declared media type. On the message built
# from the sample files, it finds nothing to complain about.

postcard.check_media()
print("All media in the postcard are valid.")

# %%
# Now a block written by hand that claims to hold a JPEG photo, although the bytes are the
# PNG icon. The message accepts it, since the media type has the right form and the data
# is not decoded. :meth:`~agentmsg.Msg.check_media` finds the mismatch and names the block.

from agentmsg import Base64Source, ImageBlock

mislabelled = ImageBlock(
    type="image",
    source=Base64Source(
        type="base64",
        media_type="image/jpeg",
        data=icon["source"]["data"],
    ),
)
suspicious = Msg(
    name="Ada",
    role="user",
    content=[TextBlock(type="text", text="My holiday photo."), mislabelled],
)

try:
    suspicious.check_media()
except MediaError as error:
    print(error)
    print("path:", error.path)

# %%
# Text that is not base64 at all is caught by the same check.

garbled = ImageBlock(
    type="image",
    source=Base64Source(type="base64", media_type="image/png", data="not base64!"),
)
broken = Msg(name="Ada", role="user", content=[garbled])

try:
    broken.check_media()
except MediaError as error:
    print(error)

# %%
# Mistakes caught at once
# -----------------------
#
# Some mistakes do not need the bytes to be decoded, and agentmsg refuses them as soon as
# the message is built. The first is a URL of a kind agentmsg does not know: a
# ``javascript:`` URL shown in a browser could run code. Besides ``http``, ``https`` and
# ``data:`` URLs, only local files are accepted, by a path, absolute or relative, or a
# ``file://`` URL, as :ref:`tutorial-migration` shows.

from agentmsg import MessageError, URLSource

unsafe = ImageBlock(
    type="image",
    source=URLSource(type="url", url="javascript:alert('hello')"),
)

try:
    Msg(name="Ada", role="user", content=[unsafe])
except MessageError as error:
    print(error)

# %%
# The second is a media type of the wrong kind. Each block must declare a media type of
# its own kind, such as ``image/png`` in an image block, so an image block that declares
# ``audio/wav`` is refused.

sound_as_picture = ImageBlock(
    type="image",
    source=Base64Source(
        type="base64",
        media_type="audio/wav",
        data=beep["source"]["data"],
    ),
)

try:
    Msg(name="Ada", role="user", content=[sound_as_picture])
except MessageError as error:
    print(error)

# %%
# The helper functions are just as strict: bytes in no known format, or a file that does
# not exist, raise :class:`~agentmsg.MediaError` with the reason.

try:
    block_from_bytes(b"just some text")
except MediaError as error:
    print(error)

try:
    block_from_file("no-such-file.png")
except MediaError as error:
    print(error)
