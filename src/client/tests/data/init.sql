-- The init script of the command_line_options case.
CREATE TEMPORARY VIEW init_view AS SELECT * FROM (VALUES (1, 'one')) AS t(id, name);
