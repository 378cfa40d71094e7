"""What every browser test of the explorer shares: where Debian's chromium is, how Playwright
starts it, and the screenshot checks (blank or not, by counting distinct pixel colours decoded
by the browser itself: no imaging library). The `browser` and `page` fixtures that use it are in
conftest.py."""

from __future__ import annotations

import base64
import os
import shutil

import httpx

# Only what the PATH (or CARTO_CHROMIUM) names: a machine without the package skips these tests.
CHROMIUM = os.environ.get("CARTO_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
#: The size every view is looked at (the issue's screenshots).
VIEWPORT = {"width": 1400, "height": 1000}
#: Screenshots of the views are kept here when set (to look at them), else in the test's tmp.
SHOTS = os.environ.get("CARTO_SCREENSHOTS")


def distinct_colours(page, png: bytes) -> int:
    """Distinct RGBA colours of a PNG, decoded by drawing it on a canvas in a blank page."""
    blank = page.context.new_page()
    try:
        return blank.evaluate(
            """async (data) => {
                const img = new Image();
                img.src = "data:image/png;base64," + data;
                await img.decode();
                const canvas = document.createElement("canvas");
                canvas.width = img.width; canvas.height = img.height;
                const ctx = canvas.getContext("2d");
                ctx.drawImage(img, 0, 0);
                const pixels = ctx.getImageData(0, 0, img.width, img.height).data;
                const seen = new Set();
                for (let i = 0; i < pixels.length; i += 4 * 7) {
                    seen.add((pixels[i] << 24) | (pixels[i + 1] << 16) | (pixels[i + 2] << 8) | pixels[i + 3]);
                }
                return seen.size;
            }""",
            base64.b64encode(png).decode(),
        )
    finally:
        blank.close()


def assert_not_blank(page, tmp_path, name: str) -> None:
    png = page.screenshot(full_page=True)
    folder = SHOTS or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{name}.png"), "wb") as handle:
        handle.write(png)
    colours = distinct_colours(page, png)
    # A blank or single-panel page has a handful of colours; text, badges and charts many.
    assert colours >= 20, f"{name}: only {colours} colours in the screenshot"


def api(server, path, body=None):
    url = server.root.rstrip("/") + path
    headers = {"authorization": f"Bearer {server.token}"}
    response = (httpx.post(url, json=body, headers=headers) if body is not None
                else httpx.get(url, headers=headers))
    response.raise_for_status()
    return response.json()
