-- Nothing runs when the script does not parse: the error names the line and column.
SET 'parallelism.default' = '1';
SELECT product,
  FROM orders;
