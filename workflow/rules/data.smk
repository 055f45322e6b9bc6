# The real cross-validation results, fetched from their public source where absent.
#
# The rule exists only while the file is absent when the run starts: an existing file is
# then no job's output, so no rerun trigger (a changed script, URL or code) can make
# Snakemake delete it before a new download, which would lose it when offline.
if not REAL_DATA_PRESENT:

    rule fetch_accuracies:
        output:
            ACCURACIES,
        log:
            "logs/fetch_accuracies.log",
        localrule: True
        conda:
            "../../environment.yml"
        params:
            url=config["accuracies_url"],
        script:
            "../scripts/fetch_accuracies.py"
