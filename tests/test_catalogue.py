"""The catalogue of targets (docs/targets.md) is written from the experiment files."""

from pathlib import Path

from cvcompare.experiments.catalogue import load_all, targets_markdown
from cvcompare.experiments.reference import reference_markdown

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
            assert f"- {claim['claim'].rstrip('.')}. Paper: {claim['paper']}" in page
    assert "shared/" not in page and "REPLICATION" not in page


def test_the_committed_building_blocks_page_is_up_to_date():
    actual = (ROOT / "docs" / "building-blocks.md").read_text()
    assert actual == reference_markdown(), (
        "docs/building-blocks.md is out of date: python -m cvcompare.experiments.reference "
        "> docs/building-blocks.md"
    )


def test_the_building_blocks_page_lists_everything_a_file_can_name():
    from cvcompare.experiments import METRIC_KINDS
    from cvcompare.experiments.analyses import ANALYSES
    from cvcompare.experiments.registry import TESTS
    from cvcompare.plots.figures import FIGURES
    from cvcompare.simulate.deltas import DISTRIBUTIONS
    from cvcompare.simulate.scenario import GENERATOR_KEYS

    page = reference_markdown()
    for name in GENERATOR_KEYS:
        assert f"### `{name}`\n\n" in page  # with its description from the docstring
    for name in TESTS:
        assert f"### `{name}`: {TESTS[name].title}\n" in page
    for names in (DISTRIBUTIONS, METRIC_KINDS, FIGURES, ANALYSES):
        for name in names:
            assert f"| `{name}` | " in page
    # every metric kind and generator has a description (no empty cells or paragraphs)
    assert "|  |" not in page and "\n\n\n" not in page


def test_a_scenario_of_ones_own_needs_no_paper_and_is_listed_last(tmp_path):
    import shutil

    import yaml

    schema = ROOT / "workflow" / "schemas" / "experiment.schema.yaml"
    for name in ("P-F2a.yaml", "W-F1.yaml"):
        shutil.copy(ROOT / "config" / "experiments" / name, tmp_path / name)
    raw = yaml.safe_load((tmp_path / "P-F2a.yaml").read_text())
    raw.pop("source")
    raw["paper_numbers"] = raw["paper_numbers"][:1]  # what the scenario expects
    raw["id"] = "A-mine"  # sorts first by name
    (tmp_path / "A-mine.yaml").write_text(yaml.safe_dump(raw))
    specs = load_all(tmp_path, schema)
    assert [s.id for s in specs] == ["P-F2a", "W-F1", "A-mine"]
    page = targets_markdown(specs)
    assert "| [A-mine](#a-mine) | own scenario | " in page
    assert "## A-mine\n\n**" in page and "- Source: own scenario.\n" in page
    mine = page[page.index("## A-mine") :]
    claim = raw["paper_numbers"][0]
    assert f"Expected numbers compared:\n\n- {claim['claim']}. Expected: {claim['paper']}" in mine
    assert "Paper numbers" not in mine and f"Paper: {claim['paper']}" not in mine
    assert page.count("\n- Corani & Benavoli (2015)") == 1
