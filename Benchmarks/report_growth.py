"""The growth of `tether report` with the log's length (docs/PERFORMANCE.md, "Reading a
long log"): one synthetic JSON Lines log per size (four devices; notifications with two
readings, sent and reply records in turn, 10 ms apart), each read by Python's own
`json.loads` line by line (the reference) and by each tether build's `report --format
text`, once per round; the table gives the median seconds per size, the growth from one
size to the next (10× the records: 10× is linear, flagged ✗ beyond 15×) and the ratio
to Python at each size."""

import datetime
import json
import os
import statistics
import subprocess
import sys
import time

PYTHON_READ = "import json,sys\nfor line in open(sys.argv[1]):\n    json.loads(line)\n"


def write_log(path, records):
    """Writes `records` records of four devices to `path`."""
    start = datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc)
    with open(path, "w") as log:
        for index in range(records):
            moment = start + datetime.timedelta(milliseconds=10 * index)
            stamp = moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)
            device = "dev%d" % (index % 4)
            kind = index % 3
            if kind == 0:
                record = {"device": device, "line": "!READING temp=%d.5 hum=40.%d" % (20 + index % 7, index % 10),
                          "readings": {"temp": 20 + index % 7 + 0.5, "hum": 40 + (index % 10) / 10},
                          "time": stamp, "type": "notification", "v": 1}
            elif kind == 1:
                record = {"device": device, "command": "MEAS?", "bytes_hex": "4d4541533f0a", "time": stamp,
                          "type": "sent", "v": 1}
            else:
                record = {"device": device, "command": "MEAS?", "reply": "%d.25" % (index % 100),
                          "lines": ["%d.25" % (index % 100)], "rtt_ms": 1.5 + index % 5, "time": stamp,
                          "type": "reply", "v": 1}
            log.write(json.dumps(record) + "\n")


def seconds(command):
    """Wall seconds of one run of `command`, which must succeed."""
    began = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit("bench: %s failed: %s" % (" ".join(command), done.stderr.strip()))
    return time.monotonic() - began


def measure(tethers, python, directory, sizes, rounds):
    """Prints the table; `tethers` are (name, folder of the release builds)."""
    clients = [("Python json.loads", lambda log: [python, "-c", PYTHON_READ, log])]
    clients += [(name + " report", lambda log, t=os.path.join(folder, "tether"): [t, "report", log, "--format", "text"])
                for name, folder in tethers]
    figures = {name: {size: [] for size in sizes} for name, _ in clients}
    for size in sizes:
        log = os.path.join(directory, "report-%d.jsonl" % size)
        write_log(log, size)
        for _ in range(rounds):
            for name, command in clients:
                figures[name][size].append(seconds(command(log)))
        os.unlink(log)
    print("\n### Reading a long log: `tether report --format text` (s, median of %d)\n" % rounds)
    labels = ["%dk" % (size // 1000) if size < 1_000_000 else "%dM" % (size // 1_000_000) for size in sizes]
    print("| client | " + " | ".join(labels) + " | " + " | ".join(
        "growth %s→%s" % (labels[i], labels[i + 1]) for i in range(len(sizes) - 1)) + " | ratio to Python at %s |" %
          labels[-1])
    print("|---" * (2 * len(sizes) + 1) + "|")
    reference = statistics.median(figures["Python json.loads"][sizes[-1]])
    for name, _ in clients:
        middles = [statistics.median(figures[name][size]) for size in sizes]
        growth = []
        for i in range(len(sizes) - 1):
            factor = middles[i + 1] / middles[i] if middles[i] else float("nan")
            linear = sizes[i + 1] / sizes[i]
            growth.append("%.1f×%s" % (factor, " ✗" if factor > 1.5 * linear else ""))
        print("| %s | %s | %s | %.2f× |" % (name, " | ".join("%.2f" % m for m in middles), " | ".join(growth),
                                            middles[-1] / reference))
    print("\ngrowth: 10× the records is 10× for a linear reader; ✗ = more than 1.5× linear.")
