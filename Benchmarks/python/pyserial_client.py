"""pyserial reference clients of scripts/bench (see docs/PERFORMANCE.md).

Usage: pyserial_client.py rtt PORT N         N x write "MEAS:VOLT?" + readline()
       pyserial_client.py readline PORT MS   "STREAM MS", one readline() per line
       pyserial_client.py chunked PORT MS    "STREAM MS", read(in_waiting) and split
       pyserial_client.py oneshot PORT       one query (process start-up runs)

Prints one JSON object with the fields of Benchmarks/c/bench-client.c.
"""

import json
import sys
import time

import serial

VOLTAGE_REPLY = b"+1.23456789E+00\n"


def round_trips(port, count):
    latencies = []
    good = 0
    for _ in range(count):
        sent = time.perf_counter()
        port.write(b"MEAS:VOLT?\n")
        reply = port.readline()
        latencies.append(time.perf_counter() - sent)
        good += reply == VOLTAGE_REPLY
    mean = sum(latencies) / count
    latencies.sort()
    return {"ok": good == count, "n": count, "good": good,
            "p50_us": latencies[count // 2] * 1e6, "mean_us": mean * 1e6}


def check(lines, wrong, line):
    """Counts one streamed line; returns (lines, wrong, announced or None)."""
    if line.startswith(b"END "):
        return lines, wrong, int(line[4:])
    if len(line) != 40 or int(line[:10]) != lines:
        wrong += 1
    return lines + 1, wrong, None


def stream_readline(port, milliseconds):
    began = time.perf_counter()
    port.write(b"STREAM %d\n" % milliseconds)
    lines = wrong = 0
    announced = None
    while announced is None:
        lines, wrong, announced = check(lines, wrong, port.readline())
    return finish(began, lines, wrong, announced)


def stream_chunked(port, milliseconds):
    began = time.perf_counter()
    port.write(b"STREAM %d\n" % milliseconds)
    lines = wrong = 0
    announced = None
    pending = b""
    while announced is None:
        pending += port.read(max(1, port.in_waiting))
        *complete, pending = pending.split(b"\n")
        for line in complete:
            lines, wrong, announced = check(lines, wrong, line + b"\n")
            if announced is not None:
                break
    return finish(began, lines, wrong, announced)


def finish(began, lines, wrong, announced):
    return {"ok": wrong == 0 and announced == lines, "lines": lines,
            "announced": announced, "wrong": wrong,
            "seconds": time.perf_counter() - began}


def main():
    mode, path = sys.argv[1], sys.argv[2]
    port = serial.Serial(path, 115200, timeout=10)
    if mode == "oneshot":
        port.write(b"MEAS:VOLT?\n")
        sys.exit(0 if port.readline() == VOLTAGE_REPLY else 1)
    argument = int(sys.argv[3])
    measure = {"rtt": round_trips, "readline": stream_readline,
               "chunked": stream_chunked}[mode]
    print(json.dumps(measure(port, argument)))


main()
