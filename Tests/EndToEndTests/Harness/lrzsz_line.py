"""A serial line between tether and an lrzsz program, for the transfer tests.

Usage: lrzsz_line.py FOLDER PROGRAM [ARGUMENT...]

Makes two pseudo-terminals joined by a relay: PROGRAM (sx, rx, sb, rb) runs in FOLDER
with its standard input and output on the second one, as on a device's console; the
first line printed is the path of the first one, for tether to open. Ends when PROGRAM
has ended and what it wrote has been relayed (3 s after), with PROGRAM's exit code; PROGRAM's
standard error goes to FOLDER/lrzsz.log."""
import os
import pty
import select
import subprocess
import sys
import time
import tty

folder, command = sys.argv[1], sys.argv[2:]
tether_master, tether_slave = pty.openpty()
device_master, device_slave = pty.openpty()
for end in (tether_slave, device_slave):
    tty.setraw(end)
print(os.ttyname(tether_slave), flush=True)
with open(os.path.join(folder, "lrzsz.log"), "w") as log:
    # A shell holds the console a second longer than PROGRAM, as a device's shell
    # does: lrzsz's last ACK was lost when its exit closed the console at once.
    wrapped = ["sh", "-c", '"$@"; status=$?; sleep 1; exit $status', "sh"] + command
    child = subprocess.Popen(wrapped, cwd=folder, stdin=device_slave, stdout=device_slave, stderr=log)
# device_slave stays open here: closed by all, the master would drop what PROGRAM
# wrote last (its final ACK) with EIO.
ended_at = None
while True:
    if ended_at is None and child.poll() is not None:
        ended_at = time.monotonic()
    if ended_at is not None and time.monotonic() - ended_at > 3.0:
        break
    ready, _, _ = select.select([tether_master, device_master], [], [], 0.05)
    for source in ready:
        target = device_master if source == tether_master else tether_master
        try:
            data = os.read(source, 65536)
        except OSError:
            continue  # the other side is not open (yet, or any more)
        if data:
            os.write(target, data)
sys.exit(child.returncode)
