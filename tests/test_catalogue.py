"""The catalogue of targets (docs/targets.md) is written from the experiment files."""

from pathlib import Path

from cvcompare.experiments.catalogue import load_all, targets_markdown

ROOT = Path(__file__).resolve().parents[1]


def _specs():
    return load_all(
        ROOT / "config" / "experiments", ROOT / "workflow" / "schemas" / "experiment.schema.yaml"
    )


def test_the_committed_catalogue_is_up_to_date():
    expected = targets_markdown(_specs())
    actual = (ROOT / "docs" / "targets.md").read_text()
    assert actual == expected, (
        "docs/targets.md is out of date: python -m cvcompare.experiments.catalogue "
        "config/experiments > docs/targets.md"
    )


def test_every_target_and_claim_is_listed():
    specs = _specs()
    page = targets_markdown(specs)
    for spec in specs:
        assert f"## {spec.id}\n" in page
        assert f"| [{spec.id}](#{spec.id.lower()}) |" in page
        for claim in spec.paper_numbers:
            assert f"- {claim['claim']}: paper {claim['paper']}" in page
    assert "shared/" not in page and "REPLICATION" not in page
