-- Issue 21, point 6: deliveries written before this stored the whole webhook URL as their target,
-- and errors that quoted it (fetch's "…includes credentials: https://user:pass@…"). Both are
-- rewritten to the description lib/alerts/targets.ts gives new ones (scheme, host, the path's
-- leading words; the last segment, the query and any credentials become "…"). The two functions
-- are the SQL twins of describeWebhookUrl and of the URL part of withoutUrlSecrets, and are dropped
-- again: nothing else uses them. Idempotent: a description describes as itself.
CREATE FUNCTION "alert_webhook_description"(url text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  parts text[];
  scheme text;
  host text;
  segments text[];
  shown text[] := '{}';
  hides boolean;
  segment_count integer;
BEGIN
  -- scheme, user info (dropped: the host cannot hold an "@"), host, path, query and fragment.
  parts := regexp_match(url, '^([A-Za-z][A-Za-z0-9+.-]*)://(?:[^/?#]*@)?([^/?#@]*)([^?#]*)(.*)$');
  IF parts IS NULL THEN
    RETURN '…';
  END IF;
  scheme := lower(parts[1]);
  host := lower(parts[2]);
  IF (scheme = 'https' AND host LIKE '%:443') OR (scheme = 'http' AND host LIKE '%:80') THEN
    host := regexp_replace(host, ':[0-9]+$', '');
  END IF;
  segments := string_to_array(parts[3], '/');
  segments := segments[2:];
  IF segments[array_upper(segments, 1)] = '' THEN
    segments := segments[:array_upper(segments, 1) - 1];
  END IF;
  segment_count := coalesce(array_length(segments, 1), 0);
  FOR i IN 1..segment_count - 1 LOOP
    EXIT WHEN NOT (segments[i] ~ '^[a-z]+([-_][a-z]+)*$' AND length(segments[i]) <= 24);
    shown := shown || segments[i];
  END LOOP;
  hides := coalesce(array_length(shown, 1), 0) < segment_count OR parts[4] <> '';
  IF hides THEN
    shown := shown || '…'::text;
  END IF;
  RETURN scheme || '://' || host || '/' || array_to_string(shown, '/');
END
$$;
--> statement-breakpoint
CREATE FUNCTION "alert_error_without_urls"(message text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  pattern constant text := '[A-Za-z][A-Za-z0-9+.-]*://[^\s"''<>]+';
  between text[] := regexp_split_to_array(message, pattern);
  urls text[] := ARRAY(SELECT (regexp_matches(message, pattern, 'g'))[1]);
  result text := between[1];
BEGIN
  -- The text between the URLs, in order, with each URL replaced by its description.
  FOR i IN 1..coalesce(array_length(urls, 1), 0) LOOP
    result := result || alert_webhook_description(urls[i]) || between[i + 1];
  END LOOP;
  RETURN result;
END
$$;
--> statement-breakpoint
UPDATE "alert_deliveries" SET "target" = alert_webhook_description("target")
  WHERE "channel" = 'webhook' AND "target" <> alert_webhook_description("target");
--> statement-breakpoint
UPDATE "alert_deliveries" SET "last_error" = alert_error_without_urls("last_error") WHERE "last_error" LIKE '%://%';
--> statement-breakpoint
UPDATE "alert_delivery_attempts" SET "error" = alert_error_without_urls("error") WHERE "error" LIKE '%://%';
--> statement-breakpoint
DROP FUNCTION "alert_error_without_urls"(text);
--> statement-breakpoint
DROP FUNCTION "alert_webhook_description"(text);
