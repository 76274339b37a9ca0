-- A good script: options set with SET, a query printed in the tableau form.
SET 'execution.runtime-mode' = 'batch';
SET 'parallelism.default' = '1';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'my.custom.key' = 'kept';
SET 'parallelism.defualt' = '2';

CREATE TEMPORARY VIEW orders AS
  SELECT * FROM (VALUES ('apple', 3), ('pear', 5), ('apple', 4)) AS t(product, quantity);

SELECT product, SUM(quantity) AS total, COUNT(*) AS orders
FROM orders
GROUP BY product;

SET;
RESET 'my.custom.key';
SET;
