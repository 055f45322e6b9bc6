# Figures and tables: read the aggregate tables (and an analysis' figure data) only; no
# statistics are computed here.


rule figure:
    input:
        unpack(figure_inputs),
        spec=lambda wildcards: experiment_file(wildcards.experiment),
    output:
        pdf="figures/{experiment}.pdf",
        png=report(
            "figures/{experiment}.png",
            caption="../report/figure.rst",
            category="Figures",
            subcategory="{experiment}",
        ),
    log:
        "logs/figures/{experiment}.log",
    conda:
        "../../environment.yml"
    params:
        version=VERSION,
        schema=str(EXPERIMENT_SCHEMA),
        caption=caption_text,
        fidelity=FIDELITY,
    script:
        "../scripts/figure.py"


rule table:
    input:
        aggregate=current_aggregate,
        spec=lambda wildcards: experiment_file(wildcards.experiment),
    output:
        csv=report(
            "figures/{experiment}.csv",
            caption="../report/table.rst",
            category="Tables",
            subcategory="{experiment}",
        ),
        md="figures/{experiment}.md",
    log:
        "logs/tables/{experiment}.log",
    conda:
        "../../environment.yml"
    params:
        version=VERSION,
        schema=str(EXPERIMENT_SCHEMA),
        caption=lambda wildcards: caption_text(wildcards, "table"),
        fidelity=FIDELITY,
    script:
        "../scripts/table.py"
