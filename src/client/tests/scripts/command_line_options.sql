-- -D options and an init script (-i) apply before the script runs.
SET;
SELECT * FROM init_view;
