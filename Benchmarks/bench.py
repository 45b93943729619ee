"""Runs tether's benchmark: see docs/PERFORMANCE.md. Started by scripts/bench, which
builds what it needs and passes the paths; run `scripts/bench --help` for options.

Every client gets a fresh Benchmarks/c/bench-device.c pty device (the many-devices
run, a fresh Benchmarks/c/bench-fleet.c of 64). Rounds are
interleaved (each round runs every client once, in a rotated order), because this
machine's wake-up latency changes mode for seconds at a time: compare clients by
their ratios within one run, not across runs.
"""

import argparse
import json
import os
import platform
import pty
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import report_growth

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


def per_extra_query(command, good_replies, count):
    """Wall time per query beyond one of a process that asks `n` queries, `command(n)`;
    `good_replies(stdout)` counts the replies that came right."""
    def wall(n):
        began = time.perf_counter()
        done = subprocess.run(command(n), capture_output=True, text=True, timeout=600)
        seconds = time.perf_counter() - began
        return seconds, good_replies(done.stdout), done.returncode
    one = min(wall(1)[0] for _ in range(3))
    seconds, good, code = wall(count)
    mean = (seconds - one) / (count - 1) * 1e6
    return {"ok": good == count and code == 0, "n": count, "good": good, "mean_us": mean}


def cli_round_trips(tether, link, count, format="json"):
    """`tether query LINK --format FORMAT MEAS:VOLT? ×count`: the wall time per query beyond one."""
    def good(output):
        if format == "text":
            return sum(1 for line in output.splitlines() if line.startswith("MEAS:VOLT? \u2192 " + VOLTAGE + "  ("))
        return sum(1 for line in output.splitlines()
                   if '"type":"reply"' in line and json.loads(line).get("lines") == [VOLTAGE])
    return per_extra_query(lambda n: [tether, "query", link, "--format", format] + ["MEAS:VOLT?"] * n, good, count)


def script_round_trips(command, link, count):
    """A client's `rtt LINK N` loop as a process of its own (the C client's or
    Benchmarks/python/pyserial_client.py's write + readline loop): the wall time per
    query beyond one."""
    def good(output):
        try:
            return json.loads(output.strip().splitlines()[-1])["good"]
        except (IndexError, KeyError, json.JSONDecodeError):
            return 0
    return per_extra_query(lambda n: command + ["rtt", link, str(n)], good, count)


def has_open(pid, path):
    """Whether process `pid` holds a descriptor of `path` (a pty slave) open."""
    try:
        descriptors = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return False
    for descriptor in descriptors:
        try:
            if os.readlink("/proc/%d/fd/%s" % (pid, descriptor)) == path:
                return True
        except OSError:
            pass
    return False


END_MARK = re.compile(rb'END (\d+)[\n"]')


def count_sequence(text, counts):
    """Counts one captured line's text: a numbered stream line or `END n`."""
    if text.startswith(b"END "):
        counts["announced"] = int(text[4:])
        return
    sequence = int(text[:10]) if len(text) == 39 and text[:10].isdigit() else -1
    if sequence != counts["lines"]:
        counts["wrong"] += 1
    counts["lines"] += 1


def raw_lines(path, counts):
    with open(path, "rb") as captured:
        for raw in captured:
            count_sequence(raw.rstrip(b"\r\n"), counts)


def json_lines(path, counts):
    with open(path, "rb") as records:
        for raw in records:
            record = json.loads(raw)
            if record["type"] == "missed":
                counts["missed"] += record["count"]
            elif record["type"] == "notification":
                count_sequence(record["line"].encode(), counts)


def capture(device, directory, argv, to_stdout, parse, stop_signal=signal.SIGTERM):
    """One capture client writing the device's stream to a file: started in its own
    session with a pty as standard input (held open), it is given the stream once it
    holds the port open; timed from the stream's start to `END n` in its file, then
    stopped, and every sequence number checked."""
    path = os.path.join(directory, "capture-%d" % time.monotonic_ns())
    keyboard, terminal = pty.openpty()
    with open(path, "wb") as output:
        client = subprocess.Popen(argv(path, device.slave), stdin=terminal,
                                  stdout=output if to_stdout else subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(terminal)
    deadline = time.monotonic() + 10
    while not has_open(client.pid, device.slave) and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(0.2)  # past its settings and its first read
    began = time.perf_counter()
    device.stream()
    ended = None
    last_size, last_growth = 0, began
    while ended is None:
        size = os.path.getsize(path) if os.path.exists(path) else 0
        if size != last_size:
            last_size, last_growth = size, time.perf_counter()
            with open(path, "rb") as follow:
                follow.seek(max(0, size - 64))
                if END_MARK.search(follow.read()):
                    ended = time.perf_counter()
        elif time.perf_counter() - last_growth > 5 or client.poll() is not None:
            break
        else:
            time.sleep(0.002)
    # Without `END n` (lost), the stream ended when the file stopped growing.
    seconds = (ended or last_growth) - began
    client.send_signal(stop_signal)
    try:
        client.wait(timeout=5)
    except subprocess.TimeoutExpired:
        client.kill()
        client.wait()
    os.close(keyboard)
    counts = {"lines": 0, "wrong": 0, "missed": 0, "announced": None}
    parse(path, counts)
    os.unlink(path)
    announced = counts["announced"]
    counts["lost"] = None if announced is None else announced - counts["lines"]
    counts["ok"] = counts["wrong"] == 0 and counts["missed"] == 0 and counts["lost"] == 0
    counts["seconds"] = seconds
    return counts


FLEET_DEVICES = 64
FLEET_RATE = 100  # lines a second, each device


def cpu_ticks(pid):
    """utime + stime of process `pid` (every thread), in clock ticks."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def memory_kib(pid, field):
    with open("/proc/%d/status" % pid) as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))


def many_devices(tether, fleet_binary, directory, seconds):
    """`tether run` of a script with an on() handler on each of FLEET_DEVICES devices of
    Benchmarks/c/bench-fleet.c, FLEET_RATE lines a second each, its records to a file:
    tether's CPU share over `seconds` (utime + stime, % of one core), its RSS, and every
    device's lines checked by sequence number."""
    folder = tempfile.mkdtemp(dir=directory)
    fleet = subprocess.Popen([fleet_binary, folder, str(FLEET_DEVICES), str(FLEET_RATE)],
                             stdout=subprocess.PIPE, text=True)
    if fleet.stdout.readline().strip() != "ready":
        sys.exit("bench: bench-fleet did not start")
    names = ["d%d" % i for i in range(FLEET_DEVICES)]
    script = os.path.join(folder, "listen.lua")
    with open(script, "w") as lua:
        lua.write("local left = %d\n" % FLEET_DEVICES)
        for name in names:
            lua.write('devices.%s.on("^END ", function() left = left - 1 end)\n' % name)
        lua.write("while left > 0 do sleep(100) end\n")
    links = [os.path.join(folder, "device-%d" % i) for i in range(FLEET_DEVICES)]
    arguments = [tether, "run", script]
    for name, link in zip(names, links):
        arguments += ["--port", "%s=%s" % (name, link)]
    output_path = os.path.join(folder, "records.txt")
    with open(output_path, "wb") as output:
        run = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.PIPE,
                               start_new_session=True)
    slaves = [os.path.realpath(link) for link in links]
    deadline = time.monotonic() + 30
    while not all(has_open(run.pid, slave) for slave in slaves) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    fleet.send_signal(signal.SIGUSR1)
    time.sleep(0.5)  # past the first lines
    ticks, began = cpu_ticks(run.pid), time.perf_counter()
    time.sleep(seconds)
    ticks, wall = cpu_ticks(run.pid) - ticks, time.perf_counter() - began
    rss, peak = memory_kib(run.pid, "VmRSS"), memory_kib(run.pid, "VmHWM")
    fleet.send_signal(signal.SIGUSR2)
    try:
        _, errors = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        run.kill()
        _, errors = run.communicate()
    fleet.terminate()
    fleet.wait()
    counts = {name: {"lines": 0, "wrong": 0, "missed": 0, "announced": None} for name in names}
    other = 0
    with open(output_path, "rb") as records:
        for raw in records:
            found = re.match(rb"\[(d\d+)\] (.*)$", raw.rstrip(b"\r\n"))
            if found and found.group(1).decode() in counts:
                count_sequence(found.group(2), counts[found.group(1).decode()])
            else:
                other += 1
    lost = sum((c["announced"] or 0) - c["lines"] for c in counts.values())
    unannounced = sum(1 for c in counts.values() if c["announced"] is None)
    wrong = sum(c["wrong"] for c in counts.values())
    for path in os.listdir(folder):
        os.unlink(os.path.join(folder, path))
    os.rmdir(folder)
    return {"ok": lost == 0 and wrong == 0 and unannounced == 0 and run.returncode == 0,
            "cpu_percent": 100.0 * ticks / os.sysconf("SC_CLK_TCK") / wall, "rss_mib": rss / 1024,
            "peak_rss_mib": peak / 1024, "lost": lost, "wrong": wrong, "unannounced": unannounced,
            "lines": sum(c["lines"] for c in counts.values()), "other_lines": other, "exit": run.returncode,
            "stderr": errors.decode(errors="replace").strip()[-200:]}


def fleet_table(rows, seconds):
    """Prints the many-devices figures: CPU share, lost lines, RSS, per round."""
    print("\n### Many devices: %d at %d lines/s each under one `tether run` (%d s window)\n" % (
        FLEET_DEVICES, FLEET_RATE, seconds))
    print("| client | CPU % of a core, per round | median | lost lines | RSS MiB (peak) |")
    print("|---|---|---|---|---|")
    for name, results in rows.items():
        cpu = " / ".join("%.1f%s" % (r["cpu_percent"], "" if r["ok"] else " ✗") for r in results)
        print("| %s | %s | %.1f | %s | %s |" % (
            name, cpu, median([r["cpu_percent"] for r in results]), " / ".join(str(r["lost"]) for r in results),
            " / ".join("%.1f (%.1f)" % (r["rss_mib"], r["peak_rss_mib"]) for r in results)))
    print("\nCPU: utime + stime of the tether process over the window; lost: lines the fleet wrote "
          "that are not in the run's records.")


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
    fleet_seconds = 3 if options.quick else 10
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
    script_clients = [
        ("C libserialport script", lambda d: script_round_trips([c("bench-client-sp")], d.link, queries)),
        ("pyserial script", lambda d: script_round_trips([options.python, client_py], d.link, queries))]
    capture_peers = [
        ("picocom --logfile", lambda d: capture(
            d, work, lambda path, slave: ["picocom", "--quiet", "--logfile", path, slave], False, raw_lines)),
        ("tio --log-file", lambda d: capture(
            d, work, lambda path, slave: ["tio", "--log", "--log-file", path, slave], False, raw_lines)),
        ("socat (raw bytes)", lambda d: capture(
            d, work, lambda path, slave: ["socat", "-u", "OPEN:%s,rawer" % slave, "CREATE:%s" % path], False,
            raw_lines))]
    capture_clients = list(capture_peers)
    fleet_clients = []
    for name, directory in tethers:
        bench = os.path.join(directory, "tether-bench")
        cli = os.path.join(directory, "tether")
        if os.path.exists(bench):
            rtt_clients.append((name + " Model", lambda d, b=bench: run_json([b, "rtt", d.link, str(queries)])))
            stream_clients.append((name + " Model", lambda d, b=bench: run_json([b, "stream", d.link, str(stream_ms)])))
        script_clients.append((name + " CLI query", lambda d, t=cli: cli_round_trips(t, d.link, queries)))
        script_clients.append((name + " CLI query, text",
                               lambda d, t=cli: cli_round_trips(t, d.link, queries, "text")))
        capture_clients.append((name + " monitor > file", lambda d, t=cli: capture(
            d, work, lambda path, slave: [t, "monitor", d.link, "--no-reconnect"], True, raw_lines, signal.SIGINT)))
        capture_clients.append((name + " monitor --format json > file", lambda d, t=cli: capture(
            d, work, lambda path, slave: [t, "monitor", d.link, "--format", "json", "--no-reconnect"], True,
            json_lines, signal.SIGINT)))
        fleet_clients.append((name + " run, %d devices" % FLEET_DEVICES,
                              lambda t=cli: many_devices(t, c("bench-fleet"), work, fleet_seconds)))

    print("# tether benchmark\n")
    print("machine: " + machine())
    print("command: " + options.invocation)
    print("rounds: %d; %d queries per RTT client; %d ms streams; start-up: hyperfine, %d runs" % (
        rounds, queries, stream_ms, startup_runs))

    work = tempfile.mkdtemp(prefix="tether-bench-")
    rtt_p50 = {name: [] for name, _ in rtt_clients}
    rtt_mean = {name: [] for name, _ in rtt_clients}
    throughput = {name: [] for name, _ in stream_clients}
    scripted = {name: [] for name, _ in script_clients}
    captured = {name: [] for name, _ in capture_clients}
    fleet = {name: [] for name, _ in fleet_clients}
    startup_names = ["C libserialport", "C raw fd", "pyserial"] + [n + " query" for n, _ in tethers] + [
        n + " query --dialect scpi" for n, _ in tethers] + [n + " query --sim" for n, _ in tethers] + [
        n + " --version" for n, _ in tethers]
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
        for clients, rows, value in ((script_clients, scripted, lambda result: result.get("mean_us", float("nan"))),
                                     (capture_clients, captured,
                                      lambda result: result.get("lines", 0) / (result.get("seconds") or float("nan")) / 1e3)):
            shift = round_index % len(clients)
            for name, measure in clients[shift:] + clients[:shift]:
                device = Device(c("bench-device"), work, stream_ms)
                result = measure(device)
                device.close()
                record(rows, name, value(result), result, round_index)
        for name, measure in fleet_clients:
            result = measure()
            fleet[name].append(result)
            if not result["ok"]:
                notes.append("round %d, %s: %s" % (round_index + 1, name, json.dumps(result)))
        device = Device(c("bench-device"), work, stream_ms)
        commands = [c("bench-client-sp") + " oneshot " + device.link,
                    c("bench-client-raw") + " oneshot " + device.link,
                    options.python + " " + client_py + " oneshot " + device.link]
        commands += [os.path.join(d, "tether") + " query " + device.link + " MEAS:VOLT?" for _, d in tethers]
        # The default line dialect listens 150 ms at open (docs/DIALECTS.md, "Stray lines"); scpi does not.
        commands += [os.path.join(d, "tether") + " query " + device.link + " --dialect scpi MEAS:VOLT?"
                     for _, d in tethers]
        commands += [os.path.join(d, "tether") + " query --sim *IDN?" for _, d in tethers]
        commands += [os.path.join(d, "tether") + " --version" for _, d in tethers]
        for name, milliseconds in zip(startup_names, hyperfine(commands, startup_runs, work)):
            startup[name].append((milliseconds, True))
        device.close()

    table("Query round trip, p50 (µs)", "µs", rtt_p50,
          "C libserialport", True, rounds)
    table("Query round trip, mean (µs)", "µs", rtt_mean,
          "C libserialport", True, rounds)
    best = max(throughput, key=lambda name: median([v for v, ok in throughput[name] if ok] or [0]))
    table("Stream throughput (k lines/s, 40-byte lines)", "k/s", throughput, best, False, rounds)
    table("Scripted queries: %d in one process, wall time per query beyond one (µs)" % queries, "µs", scripted,
          "C libserialport script", True, rounds)
    # socat copies raw bytes (the floor); the ratios are against the faster line tool.
    best_peer = max((name for name, _ in capture_peers if not name.startswith("socat")),
                    key=lambda name: median([v for v, ok in captured[name] if ok] or [0]))
    table("Capture to a file (k lines/s, 40-byte lines at pty speed)", "k/s", captured, best_peer, False, rounds)
    fleet_table(fleet, fleet_seconds)
    table("One-shot process, open + one query + exit (ms wall, hyperfine median)", "ms", startup,
          "C libserialport", True, rounds)
    report_growth.measure(tethers, options.python, work, [10_000, 100_000] if options.quick else
                          [10_000, 100_000, 1_000_000], rounds)
    binary_sizes(tethers, work)
    if notes:
        print("\nnotes (failed checks):")
        for note in notes:
            print("- " + note)
    os.rmdir(work) if not os.listdir(work) else None


if __name__ == "__main__":
    main()
