"""Runs `tether connect --sim` on a pseudo-terminal as a user's terminal, ends it
with a signal, and reports the terminal settings before and after.

usage: terminal_harness.py TETHER SIGNAL
prints: one JSON object {"status": exit status or -signal, "same": bool, "banner": bool}
"""
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import termios
import time

tether, signal_name = sys.argv[1], sys.argv[2]
master, slave = os.openpty()
before = termios.tcgetattr(slave)


def make_controlling_terminal():
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


child = subprocess.Popen(
    [tether, "connect", "--sim"], stdin=slave, stdout=slave, stderr=slave,
    preexec_fn=make_controlling_terminal, close_fds=True)
output = b""
deadline = time.time() + 30
while b"quits" not in output and time.time() < deadline:
    ready, _, _ = select.select([master], [], [], 0.2)
    if ready:
        output += os.read(master, 4096)
banner = b"quits" in output
time.sleep(0.3)
if signal_name == "HUP":
    os.close(master)
else:
    child.send_signal(getattr(signal, "SIG" + signal_name))
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                os.read(master, 4096)
            if child.poll() is not None:
                break
    except OSError:
        pass
status = child.wait(timeout=30)
same = signal_name == "HUP" or termios.tcgetattr(slave) == before
print(json.dumps({"status": status, "same": same, "banner": banner}))
