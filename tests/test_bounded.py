"""The process that reads and compares answers: each job is stopped at its bound, one that
does not end normally leaves a fresh runner to the next, nothing is left behind, and the
grader gets a reason, never a hang."""

import os
import time

from graders.bounded import helper as bounded

STATE = {"calls": 0}


def count():
    STATE["calls"] += 1
    return STATE["calls"]


def power_in_c(exponent):
    return (3 ** exponent).bit_length()  # CPython's big-integer power: no signal stops it


def allocate(mb):
    return len(bytearray(mb << 20))


def sleep(seconds):
    time.sleep(seconds)
    return "woke"


def crash():
    os.abort()


def divide(x):
    return 1 / x


def test_a_job_answers_in_json():
    assert bounded.run(divide, (2,), seconds=2) == bounded.JobResult(True, 0.5)


def test_a_job_that_does_not_end_normally_leaves_the_next_one_a_fresh_runner():
    first = bounded.run(count, seconds=2).value
    assert bounded.run(count, seconds=2).value == first + 1  # one runner, many jobs
    assert bounded.run(crash, seconds=2) == bounded.JobResult(False, why="crashed")
    assert bounded.run(count, seconds=2) == bounded.JobResult(True, 1)  # forked afresh from the helper
    assert STATE["calls"] == 0  # and none ran here


def test_a_computation_in_c_is_stopped_by_the_cpu_limit():
    start = time.monotonic()
    assert bounded.run(power_in_c, (10**9,), seconds=1) == bounded.JobResult(False, why="time")
    assert time.monotonic() - start < 10


def test_a_job_that_blocks_is_killed_at_the_wall_clock_bound():
    start = time.monotonic()
    assert bounded.run(sleep, (60,), seconds=0.5) == bounded.JobResult(False, why="time")
    assert time.monotonic() - start < 10


def test_memory_past_the_limit_is_named():
    assert bounded.run(allocate, (512,), seconds=5, memory_mb=64) == bounded.JobResult(False, why="memory")
    assert bounded.run(allocate, (16,), seconds=5, memory_mb=64) == bounded.JobResult(True, 16 << 20)


def test_a_job_that_raises_is_reported_as_crashed():
    assert bounded.run(divide, (0,), seconds=2) == bounded.JobResult(False, why="crashed")
    assert bounded.run(divide, (4,), seconds=2) == bounded.JobResult(True, 0.25)


def test_the_helper_holds_none_of_the_grading_process_files_and_ends_with_it():
    read, write = os.pipe()  # as a pipe to a student's sandbox would be
    helper = bounded.Helper()
    try:
        helper.start()
        os.close(write)
        assert os.read(read, 1) == b""  # the helper did not keep the write end open
        assert helper.run(count, (), 2, 256) == bounded.JobResult(True, 1)
        pid = helper.pid
    finally:
        os.close(read)
        helper.close()
    assert not os.path.exists(f"/proc/{pid}")
