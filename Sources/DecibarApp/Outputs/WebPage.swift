/// The page `--send http://` serves at `/`: a canvas that draws each frame the WebSocket brings
/// (the bars' rectangles in canvas pixels, with the theme's gradient from the line they grow from
/// to their tips; a meter's shapes and texts; caps), and tells the server its canvas size. Transparent where the window shows its
/// background with `--background` chroma or transparent, for OBS.
enum WebPage {
    static let html = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Decibar</title>
    <style>
      html, body { margin: 0; height: 100%; overflow: hidden; background: transparent; }
      canvas { display: block; width: 100vw; height: 100vh; }
      #state { position: fixed; left: 8px; bottom: 6px; font: 12px sans-serif; color: #9aa3b5; }
    </style>
    </head>
    <body>
    <canvas id="bars"></canvas>
    <div id="state">connecting</div>
    <script>
    "use strict";
    const canvas = document.getElementById("bars");
    const state = document.getElementById("state");
    const context = canvas.getContext("2d");
    let socket = null;
    let sentSize = "";

    function fitCanvas() {
      const ratio = window.devicePixelRatio || 1;
      const width = Math.max(16, Math.round(canvas.clientWidth * ratio));
      const height = Math.max(16, Math.round(canvas.clientHeight * ratio));
      if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
      const size = "size " + width + " " + height;
      if (socket && socket.readyState === WebSocket.OPEN && size !== sentSize) { socket.send(size); sentSize = size; }
    }

    function draw(frame) {
      if (frame.w !== canvas.width || frame.h !== canvas.height) return;  // a frame for the old size
      const note = frame.note || "";
      if (state.textContent !== note) state.textContent = note;
      context.clearRect(0, 0, canvas.width, canvas.height);
      if (frame.bg !== "transparent") { context.fillStyle = frame.bg; context.fillRect(0, 0, canvas.width, canvas.height); }
      const [baseline, reach] = frame.axis;
      const up = context.createLinearGradient(0, baseline, 0, baseline - reach);
      up.addColorStop(0, frame.center); up.addColorStop(1, frame.tip);
      const down = context.createLinearGradient(0, baseline, 0, baseline + reach);
      down.addColorStop(0, frame.center); down.addColorStop(1, frame.tip);
      shapes(frame.under);
      const bars = frame.bars;
      for (let index = 0; index + 3 < bars.length; index += 4) {
        const [x, y, w, h] = [bars[index], bars[index + 1], bars[index + 2], bars[index + 3]];
        const above = Math.min(y + h, baseline) - y;
        if (above > 0) { context.fillStyle = up; context.fillRect(x, y, w, above); }
        const below = y + h - Math.max(y, baseline);
        if (below > 0) { context.fillStyle = down; context.fillRect(x, Math.max(y, baseline), w, below); }
      }
      shapes(frame.over);
      texts(frame.texts || [], frame.font || 14);
    }

    // Flat [x, y, w, h, color, ...]: the meter's scale, slots and lamps, the caps.
    function shapes(list) {
      if (!list) return;
      for (let index = 0; index + 4 < list.length; index += 5) {
        context.fillStyle = list[index + 4];
        context.fillRect(list[index], list[index + 1], list[index + 2], list[index + 3]);
      }
    }

    // [x, y, align, anchor, color, text]: a tick label that would overlap the one above is left out, as in the window.
    function texts(list, size) {
      context.font = size + "px sans-serif";
      let lastBottom = -Infinity;
      for (const [x, y, align, anchor, color, text] of list) {
        const top = anchor === "m" ? y - size / 2 : anchor === "t" ? y : y - size;
        if (align === "r") { if (top < lastBottom) continue; lastBottom = top + size; }
        context.textAlign = align === "r" ? "right" : align === "c" ? "center" : "left";
        context.textBaseline = anchor === "m" ? "middle" : anchor === "t" ? "top" : "bottom";
        context.fillStyle = color;
        context.fillText(text, x, y);
      }
    }

    function connect() {
      const url = new URL("ws", window.location.href);
      url.search = window.location.search;  // the token, beyond loopback
      url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(url.href);
      socket.onopen = () => { state.textContent = ""; sentSize = ""; fitCanvas(); };
      socket.onmessage = (event) => draw(JSON.parse(event.data));
      socket.onclose = () => { state.textContent = "reconnecting"; setTimeout(connect, 1000); };
    }

    window.addEventListener("resize", fitCanvas);
    fitCanvas();
    connect();
    </script>
    </body>
    </html>
    """
}
