-- Values of options whose key names a secret are never shown.
SET 'metrics.reporter.prom.password' = 'hunter2';
SET 'my.secret.key' = 'also-hidden';
SET;
