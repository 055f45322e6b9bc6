"""The HTML report opened in a real headless browser (Chromium): it loads without errors,
every plot decodes and renders, and a screenshot of the page is not blank.

Chromium is the Debian package ``chromium`` (``bash scripts/install-browser.sh`` installs it;
``.ci/run`` calls that script). Without it the test is skipped with that reason.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest
from matplotlib import image as mpimg
from test_report import N, _table

from cvcompare.report import report

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="Chromium is not installed (Debian package 'chromium'; run scripts/install-browser.sh)",
)

#: Collects errors from the start and, once the page has loaded, writes what it found into
#: the page (read back with --dump-dom): errors, images decoded, resources fetched.
PROBE = """<script>
window.__errors = [];
window.addEventListener("error", function (e) {
  window.__errors.push(String(e.message || (e.target && e.target.src) || "error"));
}, true);
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify({
    errors: window.__errors,
    images: imgs.length,
    decoded: imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length,
    laidOut: imgs.filter(function (i) { return i.getBoundingClientRect().width > 100; }).length,
    fetched: performance.getEntriesByType("resource").map(function (r) { return r.name; })
      .filter(function (n) { return n.indexOf("data:") !== 0; })
  });
  document.body.appendChild(pre);
});
</script>"""


def _chromium(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--no-first-run", "--disable-extensions", *args]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    rep = report(_table(), hierarchical=False, n_samples=N, seed=3)
    rep.write(out)
    return out / "report.html", rep


def test_page_loads_without_errors_and_every_plot_decodes(page):
    path, rep = page
    probe = path.with_name("probe.html")
    probe.write_text(path.read_text().replace("<head>", "<head>" + PROBE, 1))
    done = _chromium("--window-size=1200,3000", "--dump-dom", probe.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    match = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert match, "the page did not finish loading"
    found = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert found["errors"] == []
    assert found["fetched"] == []  # nothing outside the page itself
    assert found["images"] == len(rep.figures) > 0
    assert found["decoded"] == found["images"] == found["laidOut"]


def test_screenshot_shows_the_plots(page, tmp_path):
    path, _ = page
    shot = tmp_path / "shot.png"
    done = _chromium("--window-size=1200,2400", f"--screenshot={shot}", path.as_uri())
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    pixels = mpimg.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2400, 1200)
    not_white = np.any(pixels < 0.95, axis=-1)
    assert not_white.mean() > 0.02  # text, tables and plots, not an empty page
    # coloured pixels (the heat maps and the CD diagram's page region): far from grey
    coloured = (pixels.max(axis=-1) - pixels.min(axis=-1)) > 0.3
    assert coloured.sum() > 5000
