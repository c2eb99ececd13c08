# SPDX-License-Identifier: GPL-2.0-only
"""Headless Chromium (Debian's chromium) driven over the DevTools
protocol with Debian's python3-websocket: a page opened as a person
opens it, what the browser logged while loading it (console errors,
uncaught exceptions, requests for anything but the page itself), values
computed in the page by a script, and a screenshot.

One browser serves several pages; every wait has a deadline, and a
browser that does not answer in time is named and stopped.
"""
import base64
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

import websocket


class BrowserError(Exception):
    pass


CHROMIUM = ("chromium", "chromium-browser")


def find_chromium():
    return next((p for p in map(shutil.which, CHROMIUM) if p), None)


class Browser:
    def __init__(self, exe, timeout=30.0):
        self.timeout = timeout
        self.ws = None
        self.next_id = 0
        self.events = []
        self.profile = tempfile.TemporaryDirectory(prefix="ntboot-chromium.")
        # Its chatter goes to a file that nobody has to keep reading.
        self.stderr = open(os.path.join(self.profile.name, "stderr"), "wb")
        # As root Chromium runs only without its sandbox; the page is our
        # own file.
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check",
             f"--user-data-dir={self.profile.name}",
             "--remote-debugging-port=0", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=self.stderr)
        try:
            self.ws = websocket.create_connection(
                self._devtools_url(), timeout=timeout, suppress_origin=True)
        except (OSError, websocket.WebSocketException) as e:
            self.close()
            raise BrowserError(f"chromium's DevTools: {e}") from e
        except BrowserError:
            self.close()
            raise

    def _devtools_url(self):
        """The browser's websocket: Chromium writes its port and path to
        DevToolsActivePort in the profile once it listens."""
        path = os.path.join(self.profile.name, "DevToolsActivePort")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with open(path) as f:
                    port, where = (f.read().split("\n") + ["", ""])[:2]
                if port.isdigit() and where.startswith("/devtools/"):
                    return f"ws://127.0.0.1:{port}{where}"
            except FileNotFoundError:
                pass
            time.sleep(0.1)
        with open(os.path.join(self.profile.name, "stderr"), "rb") as f:
            said = f.read()[-300:].decode(errors="replace")
        raise BrowserError("chromium did not listen within "
                           f"{self.timeout:.0f} s"
                           + (f" (it exited {self.proc.returncode})"
                              if self.proc.poll() is not None else "")
                           + f": {said}")

    def call(self, method, session=None, **params):
        """One command; its result (events meanwhile are kept)."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            reply = self._receive(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: "
                                       f"{reply['error'].get('message')}")
                return reply.get("result", {})
        raise BrowserError(f"{method}: no answer within {self.timeout:.0f} s")

    def _receive(self, deadline):
        self.ws.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            msg = json.loads(self.ws.recv())
        except websocket.WebSocketTimeoutException:
            return {}
        except (OSError, websocket.WebSocketException) as e:
            raise BrowserError(f"chromium's DevTools connection: {e}") from e
        if "method" in msg:
            self.events.append(msg)
        return msg

    def wait_event(self, method, session, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            for ev in self.events:
                if ev["method"] == method and ev.get("sessionId") == session:
                    return ev
            self._receive(deadline)
        raise BrowserError(f"no {method} within {timeout or self.timeout} s")

    def settle(self, seconds):
        """Take in what the page still says for @seconds."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._receive(deadline)

    def close(self):
        try:
            if self.ws:
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.stderr.close()
            self.profile.cleanup()


class Page:
    """One page loaded in @browser at @width CSS pixels: what it logged
    (errors: console errors, uncaught exceptions, the browser's own
    error entries; requests: every URL it asked for but its own)."""

    def __init__(self, browser, path, width=1280):
        self.b = browser
        self.url = pathlib.Path(path).resolve().as_uri()
        target = browser.call("Target.createTarget",
                              url="about:blank")["targetId"]
        self.session = browser.call("Target.attachToTarget",
                                    targetId=target,
                                    flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width,
                  height=900, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=self.url)
        browser.wait_event("Page.loadEventFired", self.session)
        browser.settle(0.3)

    def call(self, method, **params):
        return self.b.call(method, self.session, **params)

    def mine(self, method):
        return [ev["params"] for ev in self.b.events
                if ev["method"] == method
                and ev.get("sessionId") == self.session]

    def errors(self):
        out = []
        for ev in self.mine("Runtime.exceptionThrown"):
            d = ev["exceptionDetails"]
            what = d.get("exception", {}).get("description") or d.get("text")
            out.append(f"uncaught: {what} (line {d.get('lineNumber')})")
        for ev in self.mine("Runtime.consoleAPICalled"):
            if ev["type"] in ("error", "assert"):
                out.append("console." + ev["type"] + ": " + " ".join(
                    str(a.get("value", a.get("description")))
                    for a in ev["args"]))
        for ev in self.mine("Log.entryAdded"):
            if ev["entry"]["level"] == "error":
                out.append(f"{ev['entry']['source']}: "
                           f"{ev['entry']['text']}")
        return out

    def requests(self):
        """The URLs the page asked for besides itself (data: URLs are
        inside it)."""
        return [ev["request"]["url"] for ev in
                self.mine("Network.requestWillBeSent")
                if ev["request"]["url"] not in (self.url, "about:blank")
                and not ev["request"]["url"].startswith("data:")]

    def evaluate(self, expression):
        """The value of @expression in the page (JSON-able), or a
        BrowserError with the exception it threw."""
        res = self.call("Runtime.evaluate", expression=expression,
                        returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            raise BrowserError("evaluate: " + str(
                d.get("exception", {}).get("description") or d.get("text")))
        return res["result"].get("value")

    def screenshot(self, path, height=None):
        """The whole page (or its top @height CSS pixels) as a PNG."""
        params = {"format": "png", "captureBeyondViewport": True}
        if height:
            width = self.evaluate("document.documentElement.scrollWidth")
            params["clip"] = {"x": 0, "y": 0, "width": width,
                              "height": height, "scale": 1}
        data = base64.b64decode(self.call("Page.captureScreenshot",
                                          **params)["data"])
        with open(path, "wb") as f:
            f.write(data)
        return len(data)
