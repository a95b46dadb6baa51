"""Parts of validation/kernels/measure.py, one kind of measurement per module."""
