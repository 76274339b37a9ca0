CREATE DATABASE IF NOT EXISTS cat.db COMMENT 'x' WITH ('a' = 'b'); CREATE CATALOG c WITH ('type' = 'generic_in_memory'); USE CATALOG c; USE cat.db
