#!/usr/bin/env python3
"""A screenshot of a web page after it has run in headless Chromium for a while, in real time.

  page-shot.py URL OUT.png WIDTH HEIGHT SECONDS [TEXT_OUT]

With TEXT_OUT, the page's visible text (document.body.innerText) is written there too.

Chromium's own --screenshot is taken when the page has loaded (or after a virtual-time budget that
runs ahead of a WebSocket's real frames); this one waits SECONDS of real time, then asks for the
picture over the DevTools protocol.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Socket:
    """The client side of a WebSocket (RFC 6455), text frames only: enough for DevTools."""

    def __init__(self, url):
        host_port, path = url[len("ws://"):].split("/", 1)
        host, port = host_port.split(":")
        self.connection = socket.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.connection.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.connection.recv(1)
        self.buffered = head.split(b"\r\n\r\n", 1)[1]

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        else:
            header += bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
        self.connection.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def take(self, count):
        while len(self.buffered) < count:
            chunk = self.connection.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buffered += chunk
        taken, self.buffered = self.buffered[:count], self.buffered[count:]
        return taken

    def receive(self):
        first, second = self.take(2)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(self.take(2), "big")
        elif length == 127:
            length = int.from_bytes(self.take(8), "big")
        return first & 0x0F, self.take(length)


def main():
    url, out, width, height, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
    port = free_port()
    profile = tempfile.mkdtemp(prefix="decibar-chromium-")
    browser = subprocess.Popen(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                                f"--remote-debugging-port={port}", f"--user-data-dir={profile}", f"--window-size={width},{height}", url],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS="disabled:"))
    try:
        target = None
        deadline = time.monotonic() + 20
        while target is None and time.monotonic() < deadline:
            try:
                pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=2))
                target = next((page for page in pages if page.get("type") == "page" and page.get("url", "").startswith(url.split("?")[0])), None)
            except OSError:
                pass
            if target is None:
                time.sleep(0.1)
        if target is None:
            print("chromium did not open the page", file=sys.stderr)
            sys.exit(1)
        devtools = Socket(target["webSocketDebuggerUrl"])

        def call(number, method, params):
            devtools.send(json.dumps({"id": number, "method": method, "params": params}))
            while True:
                opcode, data = devtools.receive()
                if opcode == 1 and json.loads(data).get("id") == number:
                    return json.loads(data)

        # The page's viewport itself WIDTH x HEIGHT at one pixel a CSS pixel (the window's size
        # would include what a window adds).
        call(1, "Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        time.sleep(seconds)
        shot = call(2, "Page.captureScreenshot", {"format": "png"})
        with open(out, "wb") as file:
            file.write(base64.b64decode(shot["result"]["data"]))
        if len(sys.argv) > 6:
            text = call(3, "Runtime.evaluate", {"expression": "document.body.innerText", "returnByValue": True})
            with open(sys.argv[6], "w") as file:
                file.write(text["result"]["result"].get("value", ""))
    finally:
        browser.kill()
        browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
