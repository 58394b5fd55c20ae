"""`generate preview` in Chromium: after an edit only the open pages whose file
changed reload; the others keep their state (here a flag set in the page)."""
import re
import shutil
import subprocess
import threading
import time

from conftest import REPO

FIXTURE = REPO / "Tests" / "GenerateKitTests" / "Fixtures" / "mini"


class Preview:
    """`generate preview` on a copy of the mini fixture, on a free port."""

    def __init__(self, folder):
        bin_path = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True
        ).stdout.strip()
        self.folder = folder
        self.lines = []
        self.changed = threading.Condition()
        self.process = subprocess.Popen(
            [f"{bin_path}/generate", "preview", "--config", "site.yml", "--output", "preview-site", "--port", "0"],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self.read, daemon=True).start()
        self.url = re.search(r"Serving (\S+)", self.wait_for("Serving ")).group(1)

    def read(self):
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def wait_for(self, text, after=0, timeout=60):
        with self.changed:
            assert self.changed.wait_for(
                lambda: any(text in line for line in self.lines[after:]), timeout), "".join(self.lines)
            return next(line for line in self.lines[after:] if text in line)

    def edit(self, relative, old, new):
        path = self.folder / relative
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def test_only_pages_whose_file_changed_reload(new_page, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "mini")
    preview = Preview(tmp_path / "mini")
    try:
        album = new_page()
        album.goto(preview.url + "albums/10-lemonade/")
        artist_link = album.locator("main p a").first.get_attribute("href")
        artist = new_page()
        artist.goto(preview.url + artist_link.lstrip("/"))
        playlist = new_page()
        playlist.goto(preview.url + "playlists/7-road-trip/")
        for page in (album, artist, playlist):
            page.evaluate("window.__stayed = true")
        # The pages open their event streams as they load.
        time.sleep(1)

        seen = len(preview.lines)
        preview.edit("templates/partials/row.mustache", "<span>", '<span class="edited">')
        album.wait_for_selector("span.edited", timeout=20000)
        preview.wait_for("Built in", after=seen)
        # The pages named themselves: the album page, the one open page the
        # edit changes, was rendered and reloaded before the rest.
        preview.wait_for("open pages first: 1 reloaded", after=seen)
        assert album.evaluate("window.__stayed") is None, "the album page reloaded"
        time.sleep(1)
        assert artist.evaluate("window.__stayed") is True, "the artist page does not use the partial"

        # A data edit: one track's name. Its album page reloads; the artist
        # page (albums only) and the playlist (other songs) keep their state.
        album.evaluate("window.__stayed = true")
        seen = len(preview.lines)
        preview.edit("data/tracks.csv", "Hold Up", "Hold Up (Live)")
        album.wait_for_function("() => document.querySelector('main').textContent.includes('Hold Up (Live)')",
                                timeout=20000)
        line = preview.wait_for("Built in", after=seen)
        assert "pages changed" in line, line
        preview.wait_for("open pages before the index: 1 reloaded", after=seen)
        time.sleep(1)
        assert artist.evaluate("window.__stayed") is True, "the artist page does not list songs"
        assert playlist.evaluate("window.__stayed") is True, "the playlist does not hold this song"
        # Closed while the server still answers, or their event streams
        # log failed reconnections.
        for page in (album, artist, playlist):
            page.context.close()
    finally:
        preview.stop()
