-- How many people each company has, kept by a trigger in the transaction that adds or removes a member, so the member
-- list's total at 100 000 members is one row read instead of a count at every request
-- (docs/decisions/0074-company-members-and-seats.md).
CREATE TABLE company_member_counts (
  company_id  integer PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  n           integer NOT NULL DEFAULT 0 CHECK (n >= 0)
);
INSERT INTO company_member_counts (company_id, n)
  SELECT company_id, count(*) FROM company_members GROUP BY company_id;

CREATE FUNCTION company_member_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO company_member_counts (company_id, n) VALUES (NEW.company_id, 1)
      ON CONFLICT (company_id) DO UPDATE SET n = company_member_counts.n + 1;
  ELSE
    UPDATE company_member_counts SET n = n - 1 WHERE company_id = OLD.company_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_member_count AFTER INSERT OR DELETE ON company_members
  FOR EACH ROW EXECUTE FUNCTION company_member_count();
