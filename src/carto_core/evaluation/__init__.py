"""Evaluation of carto's ranking: generated homes, the age-curve harness, labelled cases."""
