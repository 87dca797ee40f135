-- The Store's last looks (store/store.ts LastLooks, issue 15): when a person last asked a
-- "since you last looked" tool (the `changes` engine), per installation, person and tool.
CREATE TABLE last_looks (
  installation text NOT NULL,
  person text NOT NULL,
  tool text NOT NULL,
  looked_at timestamptz NOT NULL,
  PRIMARY KEY (installation, person, tool)
);
