"""Runs tether's benchmark: see docs/PERFORMANCE.md. Started by scripts/bench, which
builds what it needs and passes the paths; run `scripts/bench --help` for options.

Every client gets a fresh Benchmarks/c/bench-device.c pty device. Rounds are
interleaved (each round runs every client once, in a rotated order), because this
machine's wake-up latency changes mode for seconds at a time: compare clients by
their ratios within one run, not across runs.
"""

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time

VOLTAGE = "+1.23456789E+00"


class Device:
    """One bench-device process and the symlink to its pty slave."""

    def __init__(self, binary, directory, stream_ms):
        self.link = os.path.join(directory, "device-%d" % time.monotonic_ns())
        self.process = subprocess.Popen([binary, self.link, str(stream_ms)],
                                        stdout=subprocess.PIPE, text=True)
        self.slave = self.process.stdout.readline().strip()
        if not self.slave:
            sys.exit("bench: bench-device did not start")

    def stream(self):
        self.process.send_signal(signal.SIGUSR1)

    def close(self):
        self.process.terminate()
        self.process.wait()


def run_json(command):
    """Runs a client that prints one JSON object; a failure is a result, not a crash."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"ok": False, "error": (done.stderr or done.stdout).strip()[-200:]}


def cli_round_trips(tether, link, count):
    """`tether query LINK MEAS:VOLT? ×count`: the wall time per query beyond one."""
    def wall(n):
        began = time.perf_counter()
        done = subprocess.run([tether, "query", link, "--format", "json"] + ["MEAS:VOLT?"] * n,
                              capture_output=True, text=True, timeout=600)
        seconds = time.perf_counter() - began
        good = sum(1 for line in done.stdout.splitlines()
                   if '"type":"reply"' in line and json.loads(line).get("lines") == [VOLTAGE])
        return seconds, good, done.returncode
    one = min(wall(1)[0] for _ in range(3))
    seconds, good, code = wall(count)
    mean = (seconds - one) / (count - 1) * 1e6
    return {"ok": good == count and code == 0, "n": count, "good": good, "mean_us": mean}


def cli_monitor(tether, device, directory, stream_ms):
    """`tether monitor LINK --format json > file` while the device streams: counts
    the lines in the file, checks their order and sums `missed`."""
    output_path = os.path.join(directory, "monitor-%d.jsonl" % time.monotonic_ns())
    with open(output_path, "wb") as output:
        monitor = subprocess.Popen([tether, "monitor", device.link, "--format", "json", "--no-reconnect"],
                                   stdout=output, stderr=subprocess.PIPE)
    seen = b""
    with open(output_path, "rb") as follow:
        deadline = time.monotonic() + 10
        while b'"type":"connected"' not in seen and time.monotonic() < deadline:
            seen += follow.read()
            time.sleep(0.002)
        began = time.perf_counter()
        device.stream()
        tail = b""
        last_growth = time.monotonic()
        last_growth_counter = began
        while b'"line":"END ' not in tail:
            chunk = follow.read()
            if chunk:
                tail = tail[-64:] + chunk
                last_growth = time.monotonic()
                last_growth_counter = time.perf_counter()
            elif time.monotonic() - last_growth > 5 or monitor.poll() is not None:
                break
            else:
                time.sleep(0.005)
        seen_end = b'"line":"END ' in tail
        # Without `END n` (dropped as missed), the stream ended when the file stopped growing.
        seconds = (time.perf_counter() if seen_end else last_growth_counter) - began
    monitor.send_signal(signal.SIGINT)
    monitor.wait()
    lines = wrong = missed = 0
    announced = None
    previous = -1
    with open(output_path, "rb") as records:
        for raw in records:
            record = json.loads(raw)
            if record["type"] == "missed":
                missed += record["count"]
            elif record["type"] == "notification":
                text = record["line"]
                if text.startswith("END "):
                    announced = int(text[4:])
                    continue
                sequence = int(text[:10]) if len(text) == 39 and text[:10].isdigit() else -1
                if sequence <= previous:
                    wrong += 1
                previous = max(previous, sequence)
                lines += 1
    os.unlink(output_path)
    return {"ok": wrong == 0 and missed == 0 and announced == lines, "lines": lines,
            "announced": announced, "absent": None if announced is None else announced - lines, "wrong": wrong, "missed": missed,
            "seconds": seconds}


def hyperfine(commands, runs, directory):
    """Median wall time (ms) of each shell-free command, from one hyperfine run."""
    export = os.path.join(directory, "hyperfine.json")
    done = subprocess.run(["hyperfine", "-N", "--warmup", "3", "--runs", str(runs), "--export-json", export,
                           "--style", "none"] + commands, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("bench: hyperfine failed: " + done.stderr.strip())
    with open(export) as results:
        return [result["median"] * 1e3 for result in json.load(results)["results"]]


def binary_sizes(tethers, directory):
    """Prints each tether build's executables' sizes as built and stripped (MB)."""
    print("\n### Binary size (MB, release build with the Swift runtime linked statically)\n")
    print("| executable | as built | stripped |")
    print("|---|---|---|")
    for name, folder in tethers:
        for program in ("tether", "tether-sim"):
            path = os.path.join(folder, program)
            if not os.path.exists(path):
                continue
            stripped = os.path.join(directory, program + ".stripped")
            subprocess.run(["strip", "-o", stripped, path], check=True)
            label = program if name == "tether" else "%s %s" % (name, program)
            print("| %s | %.1f | %.1f |" % (label, os.path.getsize(path) / 1e6, os.path.getsize(stripped) / 1e6))
            os.unlink(stripped)


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), "?")
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    return "%s, %d cores, Linux %s, load %.2f, %s" % (
        cpu, os.cpu_count(), platform.release(), os.getloadavg()[0], swift[0] if swift else "swift ?")


def median(values):
    return statistics.median(values) if values else float("nan")


def table(title, unit, rows, reference, better_is_lower, rounds):
    """Prints a Markdown table: per-round figures, median and ratio to `reference`."""
    print("\n### %s\n" % title)
    header = "| client | " + " | ".join("round %d" % (i + 1) for i in range(rounds))
    print(header + " | median %s | ratio |" % unit)
    print("|---" * (rounds + 3) + "|")
    reference_value = median([value for value, ok in rows.get(reference, []) if ok])
    for name, results in rows.items():
        cells = [("%.1f" % value if value == value else "—") + ("" if ok else " ✗") for value, ok in results]
        middle = median([value for value, _ in results])
        ratio = middle / reference_value if reference_value else float("nan")
        failed = "" if all(ok for _, ok in results) else " ✗"
        print("| %s | %s | %.1f%s | %.2f× |" % (name, " | ".join(cells), middle, failed, ratio))
    print("\nratio: against %s; %s is better; ✗ = a check failed (see the notes below)." % (
        reference, "lower" if better_is_lower else "higher"))


def main():
    parser = argparse.ArgumentParser(prog="scripts/bench")
    parser.add_argument("--bin", required=True, help="directory of the release builds")
    parser.add_argument("--c-bin", required=True, help="directory of bench-device and the C clients")
    parser.add_argument("--python", required=True, help="the virtual environment's python (pyserial)")
    parser.add_argument("--baseline-bin", help="release builds of the baseline (before) checkout")
    parser.add_argument("--baseline-name", default="baseline")
    parser.add_argument("--invocation", default="scripts/bench", help="the command line, for the record")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int)
    options = parser.parse_args()

    rounds = options.rounds or (1 if options.quick else 3)
    queries = 200 if options.quick else 2000
    stream_ms = 200 if options.quick else 1000
    startup_runs = 5 if options.quick else 20
    c = lambda name: os.path.join(options.c_bin, name)
    client_py = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python", "pyserial_client.py")

    tethers = [("tether", options.bin)]
    if options.baseline_bin:
        tethers.append(("tether@" + options.baseline_name, options.baseline_bin))

    rtt_clients = [("C raw fd", lambda d: run_json([c("bench-client-raw"), "rtt", d.link, str(queries)])),
                   ("C libserialport", lambda d: run_json([c("bench-client-sp"), "rtt", d.link, str(queries)])),
                   ("pyserial readline", lambda d: run_json([options.python, client_py, "rtt", d.link, str(queries)]))]
    stream_clients = [
        ("C raw fd", lambda d: run_json([c("bench-client-raw"), "stream", d.link, str(stream_ms)])),
        ("C libserialport", lambda d: run_json([c("bench-client-sp"), "stream", d.link, str(stream_ms)])),
        ("pyserial readline", lambda d: run_json([options.python, client_py, "readline", d.link, str(stream_ms)])),
        ("pyserial chunked", lambda d: run_json([options.python, client_py, "chunked", d.link, str(stream_ms)]))]
    for name, directory in tethers:
        bench = os.path.join(directory, "tether-bench")
        cli = os.path.join(directory, "tether")
        if os.path.exists(bench):
            rtt_clients.append((name + " Model", lambda d, b=bench: run_json([b, "rtt", d.link, str(queries)])))
            stream_clients.append((name + " Model", lambda d, b=bench: run_json([b, "stream", d.link, str(stream_ms)])))
        rtt_clients.append((name + " CLI query", lambda d, t=cli: cli_round_trips(t, d.link, queries)))
        stream_clients.append((name + " CLI monitor json",
                               lambda d, t=cli: cli_monitor(t, d, work, stream_ms)))

    print("# tether benchmark\n")
    print("machine: " + machine())
    print("command: " + options.invocation)
    print("rounds: %d; %d queries per RTT client; %d ms streams; start-up: hyperfine, %d runs" % (
        rounds, queries, stream_ms, startup_runs))

    work = tempfile.mkdtemp(prefix="tether-bench-")
    rtt_p50 = {name: [] for name, _ in rtt_clients}
    rtt_mean = {name: [] for name, _ in rtt_clients}
    throughput = {name: [] for name, _ in stream_clients}
    startup_names = ["C libserialport", "C raw fd", "pyserial"] + [n + " query" for n, _ in tethers] + [
        n + " query --sim" for n, _ in tethers] + [n + " --version" for n, _ in tethers]
    startup = {name: [] for name in startup_names}
    notes = []

    def record(table_rows, name, value, result, round_index):
        ok = bool(result.get("ok"))
        if not ok:
            notes.append("round %d, %s: %s" % (round_index + 1, name, json.dumps(result)))
        table_rows[name].append((value, ok))

    for round_index in range(rounds):
        print("round %d of %d…" % (round_index + 1, rounds), file=sys.stderr)
        shift = round_index % len(rtt_clients)
        for name, measure in rtt_clients[shift:] + rtt_clients[:shift]:
            device = Device(c("bench-device"), work, stream_ms)
            result = measure(device)
            device.close()
            record(rtt_p50, name, result.get("p50_us", float("nan")), result, round_index)
            rtt_mean[name].append((result.get("mean_us", float("nan")), bool(result.get("ok"))))
        shift = round_index % len(stream_clients)
        for name, measure in stream_clients[shift:] + stream_clients[:shift]:
            device = Device(c("bench-device"), work, stream_ms)
            result = measure(device)
            device.close()
            seconds = result.get("seconds") or float("nan")
            record(throughput, name, result.get("lines", 0) / seconds / 1e3, result, round_index)
        device = Device(c("bench-device"), work, stream_ms)
        commands = [c("bench-client-sp") + " oneshot " + device.link,
                    c("bench-client-raw") + " oneshot " + device.link,
                    options.python + " " + client_py + " oneshot " + device.link]
        commands += [os.path.join(d, "tether") + " query " + device.link + " MEAS:VOLT?" for _, d in tethers]
        commands += [os.path.join(d, "tether") + " query --sim *IDN?" for _, d in tethers]
        commands += [os.path.join(d, "tether") + " --version" for _, d in tethers]
        for name, milliseconds in zip(startup_names, hyperfine(commands, startup_runs, work)):
            startup[name].append((milliseconds, True))
        device.close()

    table("Query round trip, p50 (µs)", "µs", {k: v for k, v in rtt_p50.items() if "CLI" not in k},
          "C libserialport", True, rounds)
    table("Query round trip, mean (µs; CLI: wall time per extra query)", "µs", rtt_mean,
          "C libserialport", True, rounds)
    best = max(throughput, key=lambda name: median([v for v, ok in throughput[name] if ok] or [0]))
    table("Stream throughput (k lines/s, 40-byte lines)", "k/s", throughput, best, False, rounds)
    table("One-shot process, open + one query + exit (ms wall, hyperfine median)", "ms", startup,
          "C libserialport", True, rounds)
    binary_sizes(tethers, work)
    if notes:
        print("\nnotes (failed checks):")
        for note in notes:
            print("- " + note)
    os.rmdir(work) if not os.listdir(work) else None


main()
