#!/usr/bin/env python3
"""A telnet server on 127.0.0.1 that refuses every option (WILL x -> DONT x,
DO x -> WONT x; subnegotiations ignored) and answers each data line L with
`RAW L\\r\\n`: a terminal server without RFC 2217, for the remote-port tests.

usage: refusing_telnet_server.py
Prints `port N` once listening, serves one connection, then prints
`data HEX` with every data byte received (telnet commands taken out) and exits.
"""
import socket
import sys

IAC, SE, SB, WILL, WONT, DO, DONT = 255, 240, 250, 251, 252, 253, 254

listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
print("port", listener.getsockname()[1], flush=True)
connection, _ = listener.accept()
pending, line, data = b"", b"", b""
while True:
    chunk = connection.recv(4096)
    if not chunk:
        break
    pending += chunk
    replies = b""
    while pending:
        if pending[0] != IAC:
            byte, pending = pending[:1], pending[1:]
        elif len(pending) < 2:
            break
        elif pending[1] == SB:
            end = pending.find(bytes([IAC, SE]))
            if end < 0:
                break
            pending = pending[end + 2:]
            continue
        elif pending[1] in (WILL, WONT, DO, DONT):
            if len(pending) < 3:
                break
            if pending[1] == WILL:
                replies += bytes([IAC, DONT, pending[2]])
            elif pending[1] == DO:
                replies += bytes([IAC, WONT, pending[2]])
            pending = pending[3:]
            continue
        elif pending[1] == IAC:
            byte, pending = bytes([IAC]), pending[2:]
        else:
            pending = pending[2:]
            continue
        data += byte
        if byte == b"\n":
            replies += b"RAW " + line + b"\r\n"
            line = b""
        elif byte != b"\r":
            line += byte
    if replies:
        connection.sendall(replies)
print("data", data.hex(), flush=True)
