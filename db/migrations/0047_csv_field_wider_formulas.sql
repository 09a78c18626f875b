-- csv_field (migration 0002) also neutralizes a formula written with a character a spreadsheet may
-- fold to = + - or @: their full-width forms (＝ ＋ － ＠, typed by an East Asian keyboard), small
-- forms, superscripts and subscripts (every character whose NFKC form is one of the four). The
-- same rule as csvField in lib/format/csv.ts, which lib/format/csv.test.ts compares with this one.
CREATE OR REPLACE FUNCTION csv_field(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  -- One expression, no FROM: PostgreSQL inlines it into the query instead of calling it per field.
  AS $$
    SELECT CASE
      WHEN value IS NULL THEN ''
      WHEN value ~ '^[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*[-=+@\t\r\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b\u207c\u207a\u208c\u208a\ufb29]' THEN
        CASE WHEN value ~ '[",\r\n]' THEN '"''' || replace(value, '"', '""') || '"' ELSE '''' || value END
      WHEN value ~ '[",\r\n]' THEN '"' || replace(value, '"', '""') || '"'
      ELSE value
    END
  $$;
