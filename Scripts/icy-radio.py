#!/usr/bin/env python3
"""A small endless radio for tests: serves FILE (an MP3) over and over at its bit rate, as
Icecast/SHOUTcast do, with ICY stream titles every METAINT bytes when the client asks for them.
The titles are "Song 1", "Song 2"... changing every 5 s. Never ends by itself.
Usage: icy-radio.py FILE BYTES_PER_SECOND PORT_FILE   (writes the chosen port to PORT_FILE)"""
import socket, sys, threading, time

path, rate, port_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
audio = open(path, "rb").read()
METAINT = 8192

def title_block(number):
    text = f"StreamTitle='Song {number}';".encode()
    blocks = (len(text) + 15) // 16
    return bytes([blocks]) + text.ljust(blocks * 16, b"\0")

def serve(connection):
    try:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = connection.recv(4096)
            if not chunk:
                return
            request += chunk
        wants_titles = b"icy-metadata: 1" in request.lower()
        head = "ICY 200 OK\r\nicy-name: Decibar Test Radio\r\nContent-Type: audio/mpeg\r\n"
        if wants_titles:
            head += f"icy-metaint: {METAINT}\r\n"
        connection.sendall((head + "\r\n").encode())
        start = time.monotonic()
        sent = 0
        position = 0
        until_title = METAINT
        while True:
            # At the stream's own rate, a little ahead, as a radio server's burst does.
            allowed = int((time.monotonic() - start + 2) * rate) - sent
            if allowed <= 0:
                time.sleep(0.02)
                continue
            count = min(allowed, 4096, len(audio) - position)
            if wants_titles:
                count = min(count, until_title)
            connection.sendall(audio[position:position + count])
            sent += count
            position = (position + count) % len(audio)
            if wants_titles:
                until_title -= count
                if until_title == 0:
                    connection.sendall(title_block(1 + int(time.monotonic() - start) // 5))
                    until_title = METAINT
    except OSError:
        pass
    finally:
        connection.close()

listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(8)
with open(port_file + ".tmp", "w") as out:
    out.write(str(listener.getsockname()[1]))
import os
os.rename(port_file + ".tmp", port_file)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
