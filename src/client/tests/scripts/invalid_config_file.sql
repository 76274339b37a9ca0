SELECT 'never runs';
