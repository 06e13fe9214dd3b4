#!/usr/bin/env python3
"""Counts the frames a WebSocket sends, a test's client of the page's `/ws`.

  ws-frames.py HOST PORT PATH SECONDS [--read-not | --drain] [--clients N]

Connects, upgrades (RFC 6455), says `size 1280 720`, then prints one line per text frame received:
its arrival (CLOCK_MONOTONIC) and its length. With --clients N it opens N connections from this one
process and each line starts with the client's number (0 to N-1). With --read-not it upgrades and
then never reads again (a stalled client), sleeping SECONDS. With --drain it reads and discards
everything and prints each client's bytes at the end (a benchmark's load).
"""
import base64
import os
import selectors
import socket
import sys
import time


def upgrade(host, port, path):
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
    return connection


def frames(buffered):
    """The whole frames at the start of `buffered` as (opcode, length), and what is left."""
    found = []
    while len(buffered) >= 2:
        length, start = buffered[1] & 0x7F, 2
        if length == 126:
            if len(buffered) < 4:
                break
            length, start = int.from_bytes(buffered[2:4], "big"), 4
        elif length == 127:
            if len(buffered) < 10:
                break
            length, start = int.from_bytes(buffered[2:10], "big"), 10
        if len(buffered) < start + length:
            break
        found.append((buffered[0] & 0x0F, length))
        buffered = buffered[start + length:]
    return found, buffered


def main():
    host, port, path, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    count = int(sys.argv[sys.argv.index("--clients") + 1]) if "--clients" in sys.argv else 0
    connections = [upgrade(host, port, path) for _ in range(max(1, count))]
    if "--read-not" in sys.argv:
        time.sleep(seconds)
        return
    if "--drain" in sys.argv:
        # Reads and throws away, as cheaply as Python can: a benchmark's load, not its measure.
        # Prints each client's bytes at the end.
        selector = selectors.DefaultSelector()
        for index, connection in enumerate(connections):
            connection.setblocking(False)
            selector.register(connection, selectors.EVENT_READ, index)
        received = [0] * len(connections)
        scratch = bytearray(1 << 18)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for key, _ in selector.select(0.2):
                try:
                    received[key.data] += key.fileobj.recv_into(scratch)
                except BlockingIOError:
                    pass
        print(" ".join(map(str, received)))
        return
    selector = selectors.DefaultSelector()
    pending = {}
    for index, connection in enumerate(connections):
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ, index)
        pending[index] = b""
    end = time.monotonic() + seconds
    while pending and time.monotonic() < end:
        for key, _ in selector.select(0.2):
            index = key.data
            try:
                chunk = key.fileobj.recv(1 << 16)
            except BlockingIOError:
                continue
            arrived = time.monotonic()
            if not chunk:
                selector.unregister(key.fileobj)
                del pending[index]
                continue
            found, pending[index] = frames(pending[index] + chunk)
            for opcode, length in found:
                if opcode == 1:
                    print(f"{index} {arrived:.6f} {length}" if count else f"{arrived:.6f} {length}", flush=not count)


if __name__ == "__main__":
    main()
