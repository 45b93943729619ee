"""A serial line between tether and an lrzsz program, for the transfer tests.

Usage: lrzsz_line.py [--rate BYTES_PER_S] FOLDER PROGRAM [ARGUMENT...]

Makes a pseudo-terminal for tether and runs PROGRAM (sx, rx, sb, rb) in FOLDER with its
standard input and output on pipes, relaying bytes both ways; the first line printed is
the path of the pseudo-terminal, for tether to open. Ends when PROGRAM has ended and
what it wrote has been relayed (3 s after), with PROGRAM's exit code; PROGRAM's standard
error goes to FOLDER/lrzsz.log. With --rate, bytes from tether are relayed at about
that many a second, as a slow serial line would carry them (a progress bar stays on the
screen long enough to be seen).

Pipes, not a second pseudo-terminal, because lrzsz ends with tcdrain() and then
tcflush(TCIOFLUSH): on a pseudo-terminal the flush also discards what the relay has not
read yet, so its last ACK was lost whenever the relay was slower than the flush (on a
loaded machine, most runs). A UART would have sent that ACK; a pipe keeps it too.
"""
import os
import pty
import select
import subprocess
import sys
import time
import tty

arguments = sys.argv[1:]
rate = None
if arguments[0] == "--rate":
    rate, arguments = float(arguments[1]), arguments[2:]
folder, command = arguments[0], arguments[1:]
tether_master, tether_slave = pty.openpty()
tty.setraw(tether_slave)
print(os.ttyname(tether_slave), flush=True)
with open(os.path.join(folder, "lrzsz.log"), "w") as log:
    child = subprocess.Popen(
        command, cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, bufsize=0)
to_program, from_program = child.stdin.fileno(), child.stdout.fileno()
sources = [tether_master, from_program]
ended_at = None
while True:
    if ended_at is None and child.poll() is not None:
        ended_at = time.monotonic()
    if ended_at is not None and time.monotonic() - ended_at > 3.0:
        break
    ready, _, _ = select.select(sources, [], [], 0.05)
    for source in ready:
        try:
            data = os.read(source, 256 if rate and source == tether_master else 65536)
        except OSError:
            continue  # tether has not opened the pseudo-terminal (yet, or any more)
        if not data:
            sources.remove(source)  # PROGRAM closed its standard output
            continue
        try:
            os.write(to_program if source == tether_master else tether_master, data)
        except OSError:
            pass  # PROGRAM has ended: what tether sends now has no reader
        if rate and source == tether_master:
            time.sleep(len(data) / rate)
sys.exit(child.returncode)
