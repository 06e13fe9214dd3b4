#!/usr/bin/env python3
"""Counts the frames a WebSocket sends, a test's client of the page's `/ws`.

  ws-frames.py HOST PORT PATH SECONDS [--read-not]

Connects, upgrades (RFC 6455), says `size 1280 720`, then prints one line per text frame received:
its arrival (CLOCK_MONOTONIC) and its length. With --read-not it upgrades and then never reads
again (a stalled client), sleeping SECONDS.
"""
import base64
import os
import socket
import sys
import time


def main():
    host, port, path, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    stalled = "--read-not" in sys.argv
    connection = socket.create_connection((host, port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n")
    connection.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = connection.recv(1)
        if not chunk:
            print("closed before the upgrade", file=sys.stderr)
            sys.exit(1)
        head += chunk
    status = head.split(b"\r\n")[0].decode()
    if " 101 " not in status:
        print(f"refused: {status}", file=sys.stderr)
        sys.exit(1)
    # A masked text frame from the client.
    payload = b"size 1280 720"
    mask = os.urandom(4)
    connection.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    if stalled:
        time.sleep(seconds)
        return
    connection.settimeout(0.5)
    buffered = b""
    end = time.monotonic() + seconds

    def take(count):
        nonlocal buffered
        while len(buffered) < count:
            if time.monotonic() > end:
                raise TimeoutError
            try:
                chunk = connection.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise EOFError
            buffered += chunk
        taken, buffered = buffered[:count], buffered[count:]
        return taken

    try:
        while time.monotonic() < end:
            first, second = take(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(take(2), "big")
            elif length == 127:
                length = int.from_bytes(take(8), "big")
            data = take(length)
            if first & 0x0F == 1:
                print(f"{time.monotonic():.6f} {len(data)}", flush=True)
    except (TimeoutError, EOFError):
        pass


if __name__ == "__main__":
    main()
