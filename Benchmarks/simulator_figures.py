#!/usr/bin/env python3
"""Prints figures for tether against the simulator; not a test (no pass/fail).

1. `tether monitor --format json` throughput under `tether-sim --burst N@RATE
   --sequence-numbers`: notifications received per second and how many were lost
   (by their seq numbers).
2. Peak RSS of `tether monitor --format json` for a device that sends 64 MiB of
   "A" with no terminator, then "\\nOK\\n", from a pty this script holds; compared with
   the same monitor receiving only "OK\\n".

Usage: swift build --product tether --product tether-sim   (or swift build)
       python3 Benchmarks/simulator_figures.py [--build-dir .build/debug]
Only the Python standard library is used.
"""
import argparse
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time


def burst_throughput(build, count, rate):
    """Runs one burst; returns (received, lost by seq, events monitor reported `missed`,
    notifications per second from the first to the last, wall seconds)."""
    with tempfile.TemporaryDirectory() as folder:
        link = os.path.join(folder, "dev")
        sim = subprocess.Popen(
            [os.path.join(build, "tether-sim"), "--link", link, "--burst", f"{count}@{rate}",
             "--sequence-numbers"], stdout=subprocess.PIPE, text=True)
        try:
            while not sim.stdout.readline().startswith("link:"):
                pass
            started = time.monotonic()
            seconds = count / rate + 5
            monitor = subprocess.run(
                [os.path.join(build, "tether"), "monitor", link, "--format", "json", "--count", str(count),
                 "--duration", str(seconds)], capture_output=True, text=True, timeout=seconds + 60)
            wall = time.monotonic() - started
        finally:
            sim.send_signal(signal.SIGTERM)
            sim.wait()
    seqs, times, missed = [], [], 0
    for line in monitor.stdout.splitlines():
        record = json.loads(line)
        missed += record.get("count", 0) if record.get("type") == "missed" else 0
        if record.get("type") == "notification" and record.get("line", "").startswith("!BURST"):
            seqs.append(record["readings"]["seq"])
            times.append(record["time"])
    received = len(seqs)
    lost = count - len(set(seqs))
    span = iso_seconds(times[-1]) - iso_seconds(times[0]) if len(times) > 1 else float("nan")
    return received, lost, missed, (received - 1) / span if span > 0 else float("nan"), wall


def iso_seconds(stamp):
    """Seconds since midnight of an ISO time with milliseconds (same day assumed)."""
    clock = stamp.split("T")[1].rstrip("Z")
    hours, minutes, seconds = clock.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def monitor_peak_rss(build, payload):
    """Serves `payload` on a pty to `tether monitor --format json`; returns (peak RSS KiB, saw OK).

    The peak is VmHWM from /proc/<pid>/status, read just before the monitor is stopped:
    wait4's ru_maxrss would also count the forked Python child's pages before exec
    (the 64 MiB payload), which is not tether's memory."""
    master, slave = os.openpty()
    slave_path = os.ttyname(slave)
    os.close(slave)  # so the master reports POLLHUP until tether opens the slave
    with tempfile.TemporaryDirectory() as folder:
        link = os.path.join(folder, "dev")
        os.symlink(slave_path, link)
        out_path = os.path.join(folder, "out.jsonl")
        with open(out_path, "w") as out:
            monitor = subprocess.Popen(
                [os.path.join(build, "tether"), "monitor", link, "--format", "json", "--no-reconnect"],
                stdout=out, stderr=subprocess.DEVNULL)
        poller = select.poll()
        poller.register(master, 0)
        while any(event & select.POLLHUP for _, event in poller.poll(0)):
            time.sleep(0.01)
        time.sleep(0.3)  # tether sets raw mode right after opening
        chunk = b"A" * 65536
        for _ in range(len(payload) // len(chunk)):
            os.write(master, chunk)
        os.write(master, payload[len(payload) // len(chunk) * len(chunk):])
        saw_ok = False
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not saw_ok:
            time.sleep(0.2)
            with open(out_path) as out:
                saw_ok = any(json.loads(line).get("line") == "OK" for line in out if line.strip())
        peak = peak_rss_kib(monitor.pid)
        monitor.send_signal(signal.SIGINT)
        os.wait4(monitor.pid, 0)
        os.close(master)
    return peak, saw_ok


def peak_rss_kib(pid):
    """VmHWM (peak resident set) of a running process, in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=".build/debug")
    build = parser.parse_args().build_dir
    print(f"tether and tether-sim from {os.path.abspath(build)}")
    print("\n1. tether monitor --format json under tether-sim --burst N@RATE --sequence-numbers")
    print(f"{'burst':>16} {'received':>9} {'lost':>5} {'missed':>7} {'recv/s':>9} {'wall s':>7}")
    for count, rate in [(1000, 2000), (5000, 5000), (20000, 1000000)]:
        received, lost, missed, per_second, wall = burst_throughput(build, count, rate)
        print(f"{count:>8}@{rate:<7} {received:>9} {lost:>5} {missed:>7} {per_second:>9.0f} {wall:>7.2f}")
    print("   lost: burst lines whose seq never arrived; missed: events tether monitor itself")
    print("   reported dropping because its output fell behind (never a silent drop)")
    print("\n2. Peak RSS of tether monitor --format json (64 MiB without a terminator)")
    base, base_ok = monitor_peak_rss(build, b"OK\n")
    big, big_ok = monitor_peak_rss(build, b"A" * (64 << 20) + b"\nOK\n")
    print(f"   'OK\\n' only:                     {base / 1024:7.1f} MiB  (OK seen: {base_ok})")
    print(f"   64 MiB without terminator, OK:   {big / 1024:7.1f} MiB  (OK seen: {big_ok})")
    print(f"   growth:                          {(big - base) / 1024:7.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
