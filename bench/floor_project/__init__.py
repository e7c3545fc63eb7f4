"""A separate minimal Django project: the floor of bench/move_outside.py, the least any move could
cost through Django and DRF. It shares nothing with Slowhand but PostgreSQL (its own database)."""
