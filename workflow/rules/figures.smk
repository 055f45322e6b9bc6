# Figures: read the aggregate tables only (no statistics are computed here).


rule figure:
    input:
        aggregate=current_aggregate,
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
        schema=str(EXPERIMENT_SCHEMA),
        caption=caption_text,
        fidelity=FIDELITY,
    script:
        "../scripts/figure.py"
