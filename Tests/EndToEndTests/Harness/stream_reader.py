#!/usr/bin/env python3
"""Reads `tether monitor PORT --format json` as a consumer of its output would, for
the lossless end-to-end tests: checks that the `!BURST n=<i>` notifications arrive
once each and in order (numbered from the first one seen), and reports tether's peak
memory (ru_maxrss from wait4).

usage: stream_reader.py TETHER PORT COUNT pipe PAUSE_AFTER PAUSE_SECONDS
       stream_reader.py TETHER PORT COUNT file OUTPUT
`pipe` reads tether's output through a pipe, pausing PAUSE_SECONDS after PAUSE_AFTER
burst lines (a slow reader), and ends tether with SIGTERM after COUNT burst lines;
`file` runs `tether monitor PORT --format json --count COUNT > OUTPUT` and reads the
file after tether exits (the device must send no other notifications).
Prints one JSON object: burst (lines seen), in_order, first_bad, missed (records),
other (records of other types; pending_text, a burst line cut by a pause of the
simulator, is progress and not counted), status, maxrss_kb.
"""
import json
import os
import signal
import subprocess
import sys
import time

tether, port, count, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
command = [tether, "monitor", port, "--format", "json"]
summary = {"burst": 0, "in_order": True, "first_bad": None, "missed": 0, "other": 0}
first_number = None


def take(raw):
    global first_number
    record = json.loads(raw)
    kind = record.get("type")
    if kind == "missed":
        summary["missed"] += record.get("count", 1)
    elif kind == "notification" and record.get("line", "").startswith("!BURST n="):
        number = int(record["line"].split("n=")[1].split()[0])
        if first_number is None:
            first_number = number
        if number != first_number + summary["burst"] and summary["in_order"]:
            summary["in_order"], summary["first_bad"] = False, record["line"]
        summary["burst"] += 1
    elif kind not in ("connected", "notification", "pending_text"):
        summary["other"] += 1


if mode == "pipe":
    pause_after, pause_seconds = int(sys.argv[5]), float(sys.argv[6])
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for raw in process.stdout:
        take(raw)
        if summary["burst"] == pause_after:
            time.sleep(pause_seconds)
            pause_after = -1
        if summary["burst"] == count:
            process.send_signal(signal.SIGTERM)
            break
    for raw in process.stdout:
        take(raw)
else:
    with open(sys.argv[5], "wb") as output:
        process = subprocess.Popen(command + ["--count", str(count)], stdout=output, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    with open(sys.argv[5], "rb") as output:
        for raw in output:
            take(raw)
if mode == "pipe":
    _, status, usage = os.wait4(process.pid, 0)
summary["status"] = os.waitstatus_to_exitcode(status)
summary["maxrss_kb"] = usage.ru_maxrss
print(json.dumps(summary))
