"""``GET /api/i18n/{lang}``: the page's texts in one language."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from yacht.i18n import LANGUAGES
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import Catalog
from yacht.web.protocol.texts import catalog

__all__ = ["router"]

router = APIRouter(tags=["texts"])


@router.get("/i18n/{lang}")
async def texts(lang: Annotated[str, Path(max_length=8)]) -> Catalog:
    """The page's texts in one language (en, fi, bg, nb)."""
    if lang not in LANGUAGES:
        raise TableError("not_found", f"no texts for language {lang!r}")
    return Catalog.model_validate(catalog(lang))
