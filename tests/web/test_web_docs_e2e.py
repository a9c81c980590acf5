"""/docs in a real browser: Swagger UI renders the OpenAPI 3.1 document the server writes."""

from __future__ import annotations

from playwright.sync_api import expect

from .live import LiveServer
from .pages import Pages, shot


def test_the_api_documentation_shows_every_operation(pages: Pages, server: LiveServer) -> None:
    page = pages.open(server.url + "/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Yacht", timeout=20_000)
    expect(page.get_by_text("Unable to render this definition")).to_have_count(0)
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/tables" in paths and "/api/tables/{code}/actions" in paths
    page.locator(".opblock-summary-path", has_text="/api/presets").first.click()
    expect(page.get_by_role("button", name="Try it out")).to_be_visible()
    shot(page, "docs-desktop")
