# The real cross-validation results, fetched from their public source where absent.


rule fetch_accuracies:
    output:
        ACCURACIES,
    log:
        "logs/fetch_accuracies.log",
    conda:
        "../../environment.yml"
    params:
        url=config["accuracies_url"],
    script:
        "../scripts/fetch_accuracies.py"
