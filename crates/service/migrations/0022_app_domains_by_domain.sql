-- Registered domains found by the domain alone, in any case: a web page's
-- origin is let read the service's answers only when some app registered its
-- host (src/http/cors.rs), looked up as lower(domain).
CREATE INDEX app_domains_by_domain ON app_domains (lower(domain));
