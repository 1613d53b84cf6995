"""Tests for ids, timestamps and ``deterministic()`` (``src/agentmsg/_ids.py``)."""

from __future__ import annotations

import asyncio
import re
import threading
from datetime import datetime, timedelta

import pytest

from agentmsg import MessageError, Msg, deterministic
from agentmsg._ids import new_id, now_timestamp
from agentmsg._validate import parse_timestamp

ID = re.compile(r"[A-Za-z0-9_-]{22}")


class TestNewId:
    """Fresh message ids."""

    def test_form(self):
        """An id is 22 URL-safe characters."""
        assert all(ID.fullmatch(new_id()) for _ in range(500))

    def test_unique(self):
        """Ids do not repeat."""
        assert 5000 == len({new_id() for _ in range(5000)})

    def test_url_safe_alphabet_is_used(self):
        """Random ids use the URL-safe base64 alphabet, never ``+``, ``/`` or ``=``."""
        text = "".join(new_id() for _ in range(2000))

        assert not set(text) & set("+/=")
        assert set(text) & set("-_")


class TestNowTimestamp:
    """The default timestamp."""

    def test_form_and_value(self):
        """The local time, to the millisecond, as YYYY-MM-DD HH:MM:SS.mmm."""
        before = datetime.now().replace(microsecond=0)
        value = now_timestamp()
        after = datetime.now()

        parsed = parse_timestamp(value)
        assert parsed is not None
        assert before <= parsed <= after

    def test_whole_seconds_keep_milliseconds(self):
        """The milliseconds are written even when they are zero."""
        with deterministic(start="2025-06-01 12:00:00.000"):
            assert "2025-06-01 12:00:00.000" == now_timestamp()


class TestParseTimestamp:
    """``parse_timestamp``."""

    def test_valid(self):
        """A timestamp of the right form is parsed to a datetime."""
        assert datetime(2024, 2, 29, 13, 5, 9, 7000) == parse_timestamp("2024-02-29 13:05:09.007")

    @pytest.mark.parametrize(
        "value",
        [
            "2025-02-30 00:00:00.000",
            "2025-01-01 00:00:00",
            "2025-01-01T00:00:00.000",
            "+025-01-01 00:00:00.000",
        ],
    )
    def test_invalid(self, value):
        """Text that is not a real date of the form gives None."""
        assert None is parse_timestamp(value)


class TestDeterministic:
    """``agentmsg.deterministic``."""

    def test_same_seed_same_ids(self):
        """The same seed gives the same sequence of ids."""
        with deterministic(seed=42):
            first = [new_id() for _ in range(5)]
        with deterministic(seed=42):
            second = [new_id() for _ in range(5)]

        assert first == second
        assert all(ID.fullmatch(value) for value in first)
        assert 5 == len(set(first))

    def test_different_seeds_differ(self):
        """Different seeds give different ids."""
        with deterministic(seed=1):
            first = new_id()
        with deterministic(seed="1x"):
            second = new_id()

        assert first != second

    def test_clock(self):
        """Timestamps start at ``start`` and advance ``step_seconds`` per message."""
        with deterministic(start="2025-12-31 23:59:59.500", step_seconds=0.25):
            values = [Msg("A", "Hi", "user").timestamp for _ in range(3)]

        assert [
            "2025-12-31 23:59:59.500",
            "2025-12-31 23:59:59.750",
            "2026-01-01 00:00:00.000",
        ] == values

    def test_zero_step(self):
        """A step of zero keeps the clock still."""
        with deterministic(step_seconds=0):
            values = {Msg("A", "Hi", "user").timestamp for _ in range(3)}

        assert {"2025-01-01 09:00:00.000"} == values

    def test_explicit_values_do_not_advance(self):
        """Messages with a given id and timestamp take nothing from the streams."""
        with deterministic(seed=5):
            Msg("A", "Hi", "user", timestamp="2000-01-01 00:00:00.000", id="given")
            first = Msg("A", "Hi", "user")
        with deterministic(seed=5):
            second = Msg("A", "Hi", "user")

        assert (second.id, second.timestamp) == (first.id, first.timestamp)

    def test_outside_is_random(self):
        """Outside the block ids are random again."""
        with deterministic(seed=9):
            inside = new_id()
        outside = [new_id() for _ in range(3)]

        assert inside not in outside
        with deterministic(seed=9):
            assert inside == new_id()

    def test_nesting(self):
        """An inner block has its own streams; leaving it resumes the outer ones."""
        with deterministic(seed=1):
            outer_first = new_id()
            with deterministic(seed=2, start="2030-01-01 00:00:00.000"):
                inner = (new_id(), now_timestamp())
            outer_second = (new_id(), now_timestamp())

        with deterministic(seed=1):
            expected_outer = [new_id(), (new_id(), now_timestamp())]
        with deterministic(seed=2, start="2030-01-01 00:00:00.000"):
            expected_inner = (new_id(), now_timestamp())

        assert expected_outer == [outer_first, outer_second]
        assert expected_inner == inner

    def test_reset_on_error(self):
        """An exception inside the block still restores the previous mode."""
        with pytest.raises(RuntimeError), deterministic(seed=3):
            raise RuntimeError("boom")

        assert len({new_id() for _ in range(20)}) == 20
        now = parse_timestamp(now_timestamp())
        assert now is not None
        assert abs(now - datetime.now()) < timedelta(minutes=1)

    def test_other_threads_are_unaffected(self):
        """A thread started inside the block does not see the deterministic mode."""
        results: list[str] = []

        def work() -> None:
            results.append(Msg("A", "Hi", "user").timestamp)

        with deterministic(start="1990-01-01 00:00:00.000"):
            thread = threading.Thread(target=work)
            thread.start()
            thread.join()
            mine = Msg("A", "Hi", "user").timestamp

        assert "1990-01-01 00:00:00.000" == mine
        assert not results[0].startswith("1990")

    def test_threads_each_get_their_own(self):
        """Two threads in their own blocks with the same seed get the same ids."""
        results: dict[int, list[str]] = {}
        barrier = threading.Barrier(2)

        def work(index: int) -> None:
            with deterministic(seed=11):
                barrier.wait()
                results[index] = [new_id() for _ in range(50)]

        threads = [threading.Thread(target=work, args=(index,)) for index in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert results[0] == results[1]

    def test_asyncio_tasks_are_isolated(self):
        """Concurrent asyncio tasks each in their own block do not disturb each other."""

        async def work(seed: int) -> list[str]:
            with deterministic(seed=seed):
                ids = []
                for _ in range(5):
                    ids.append(new_id())
                    await asyncio.sleep(0)
                return ids

        async def main() -> list[list[str]]:
            return list(await asyncio.gather(work(1), work(2), work(1)))

        first, second, third = asyncio.run(main())

        assert first == third
        assert first != second

    @pytest.mark.parametrize(
        ("kwargs", "text"),
        [
            (
                {"start": "2025-01-01"},
                "`start` must be a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm', "
                "not '2025-01-01'.",
            ),
            (
                {"start": "2025-02-30 00:00:00.000"},
                "`start` must be a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm', "
                "not '2025-02-30 00:00:00.000'.",
            ),
            (
                {"start": None},
                "`start` must be a timestamp of the form 'YYYY-MM-DD HH:MM:SS.mmm', not None.",
            ),
            ({"step_seconds": -1}, "`step_seconds` must be a number of seconds >= 0, not -1."),
            (
                {"step_seconds": float("nan")},
                "`step_seconds` must be a number of seconds >= 0, not nan.",
            ),
            ({"step_seconds": "1"}, "`step_seconds` must be a number of seconds >= 0, not '1'."),
            ({"step_seconds": True}, "`step_seconds` must be a number of seconds >= 0, not True."),
        ],
    )
    def test_invalid_arguments(self, kwargs, text):
        """Bad arguments raise MessageError when the block is entered."""
        with pytest.raises(MessageError) as info, deterministic(**kwargs):
            pass

        assert text == str(info.value)


def seeded(seed: int, count: int) -> list[tuple[str, str]]:
    """The first *count* (id, timestamp) pairs of a fresh ``deterministic(seed)`` block."""
    with deterministic(seed=seed):
        return [(new_id(), now_timestamp()) for _ in range(count)]


class TestDeterministicTasks:
    """``deterministic()`` and the asyncio tasks created inside it: each task starts from
    the state it was created with and goes on alone, and the block's end is the end."""

    @staticmethod
    async def draw(count: int) -> list[tuple[str, str]]:
        pairs = []
        for _ in range(count):
            pairs.append((new_id(), now_timestamp()))
            await asyncio.sleep(0)  # let the other tasks run in between
        return pairs

    @pytest.mark.parametrize("reverse", [False, True], ids=["in order", "reversed"])
    def test_each_task_starts_from_its_creation(self, reverse):
        """A task created before any id gets the stream from its start; one created
        after the block drew two gets it from the third; the interleaving and the order
        the tasks are awaited in change nothing."""
        stream = seeded(4, 5)

        async def main() -> tuple[list[object], list[object], list[object]]:
            with deterministic(seed=4):
                first = asyncio.create_task(self.draw(3))
                mine = [(new_id(), now_timestamp()), (new_id(), now_timestamp())]
                second = asyncio.create_task(self.draw(3))
                tasks = [second, first] if reverse else [first, second]
                done = await asyncio.gather(*tasks)
                mine.append((new_id(), now_timestamp()))
            results = dict(zip(tasks, done, strict=True))
            return results[first], results[second], mine

        first, second, mine = asyncio.run(main())

        assert stream[:3] == first
        assert stream[2:5] == second
        assert stream[:3] == mine  # the block itself went on from its own state

    def test_long_interleaved_streams(self):
        """Two tasks drawing many ids turn about, each from its own state, get the same
        ids as one context drawing them alone (the saved states and the catching up
        between them change nothing)."""
        with deterministic(seed=12):
            alone = [new_id() for _ in range(45)]

        async def main() -> list[list[tuple[str, str]]]:
            with deterministic(seed=12):
                new_id()
                first = asyncio.create_task(self.draw(40))  # from the second id
                new_id()
                new_id()
                second = asyncio.create_task(self.draw(40))  # from the fourth
                return list(await asyncio.gather(first, second))

        first, second = asyncio.run(main())

        assert (alone[1:41], alone[3:43]) == ([i for i, _ in first], [i for i, _ in second])

    def test_the_end_of_the_block_ends_it_for_its_tasks(self):
        """A task created inside the block that runs after the block ended makes random
        ids and real timestamps, not the block's."""
        stream = seeded(6, 3)

        async def main() -> list[tuple[str, str]]:
            with deterministic(seed=6, start="1990-01-01 00:00:00.000"):
                late = asyncio.create_task(self.draw(3))
            return await late

        pairs = asyncio.run(main())

        assert not set(stream) & set(pairs)
        assert not any(when.startswith("1990") for _, when in pairs)

    def test_leaving_from_another_task(self):
        """A block entered in one task and left in another ends without error, for
        both tasks."""
        block = deterministic(seed=8, start="1990-01-01 00:00:00.000")

        async def main() -> tuple[str, str]:
            entered, left = asyncio.Event(), asyncio.Event()

            async def enter() -> tuple[str, str]:
                block.__enter__()
                inside = now_timestamp()
                entered.set()
                await left.wait()
                return inside, now_timestamp()

            async def leave() -> None:
                await entered.wait()
                block.__exit__(None, None, None)
                left.set()

            entering = asyncio.create_task(enter())
            await asyncio.create_task(leave())
            return await entering

        inside, after = asyncio.run(main())

        assert "1990-01-01 00:00:00.000" == inside
        assert not after.startswith("1990")
        assert not now_timestamp().startswith("1990")

    def test_an_inner_block_ended_in_a_task_falls_back_to_the_outer(self):
        """A task created in an inner block that has ended goes on with the outer block's
        clock as it was when the inner one began."""

        async def main() -> str:
            with deterministic(seed=1, start="2000-01-01 00:00:00.000"):
                with deterministic(seed=2, start="1990-01-01 00:00:00.000"):
                    task = asyncio.create_task(self.draw(1))
                return (await task)[0][1]

        assert "2000-01-01 00:00:00.000" == asyncio.run(main())
