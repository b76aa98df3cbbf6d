"""enrichments.*: create, get, cancel, update, delete (a webset's enrichments)."""

from __future__ import annotations

from pydantic import Field, model_validator

from exa_orch.operations import projections as pj

from ._creates import create_op, find_in_webset
from ._http import WEBSETS, rest_op
from .models import Args, Id
from .registry import Operation
from .shapes import EnrichmentFormat, EnrichmentSpec, Metadata, Option, check_options


class CreateEnrichment(EnrichmentSpec):
    webset_id: Id
    """webset id or externalId"""


class EnrichmentRef(Args):
    webset_id: Id
    enrichment_id: Id


class UpdateEnrichment(EnrichmentRef):
    description: str | None = Field(default=None, min_length=1, max_length=5000)
    format: EnrichmentFormat | None = None
    options: list[Option] | None = None
    metadata: Metadata | None = None

    @model_validator(mode="after")
    def _options(self) -> UpdateEnrichment:
        check_options(self.format, self.options, required=False)
        return self


P = f"{WEBSETS}/websets/{{webset_id}}/enrichments"
OPERATIONS: list[Operation] = [
    create_op("enrichments.create", CreateEnrichment, P, "Add an enrichment (description, format; options "
              "when format is 'options') to every item of a webset.", project=pj.one(pj.enrichment),
              find=lambda ctx, args, key: find_in_webset(ctx, args.webset_id, "enrichments", key)),
    rest_op("enrichments.get", EnrichmentRef, "GET", P + "/{enrichment_id}", "Get an enrichment.", project=pj.one(pj.enrichment)),
    rest_op("enrichments.cancel", EnrichmentRef, "POST", P + "/{enrichment_id}/cancel", "Cancel a running "
            "enrichment.", project=pj.one(pj.enrichment)),
    rest_op("enrichments.update", UpdateEnrichment, "PATCH", P + "/{enrichment_id}", "Change an enrichment's "
            "description, format, options or metadata.", project=pj.one(pj.enrichment)),
    rest_op("enrichments.delete", EnrichmentRef, "DELETE", P + "/{enrichment_id}", "Delete an enrichment and "
            "its results.", project=pj.one(pj.enrichment)),
]  # fmt: skip
