-- The schema of a version-1 database as the first release made it (knowledge/store.py at 4962f56,
-- with the admin and role tables bot/admin.py and bot/roles.py created on first use). Do not edit.
CREATE TABLE "boards" (
   "id" TEXT PRIMARY KEY,
   "name" TEXT,
   "system" TEXT,
   "language" TEXT,
   "website" TEXT,
   "aliases" TEXT,
   "municipalities" TEXT
);
CREATE TABLE "sources" (
   "file" TEXT PRIMARY KEY,
   "title" TEXT,
   "published" TEXT,
   "approximate" INTEGER
);
CREATE TABLE "facts" (
   "id" TEXT PRIMARY KEY,
   "topic" TEXT,
   "text" TEXT,
   "source" TEXT,
   "published" TEXT,
   "origin" TEXT
);
CREATE TABLE "statuses" (
   "id" TEXT PRIMARY KEY,
   "board" TEXT,
   "start" TEXT,
   "until" TEXT,
   "status" TEXT,
   "summary" TEXT,
   "source" TEXT,
   "published" TEXT,
   "author" TEXT,
   "retracted" TEXT,
   "origin" TEXT
);
CREATE TABLE "withdrawn_services" (
   "id" TEXT PRIMARY KEY,
   "workers" TEXT,
   "service" TEXT,
   "phase" TEXT,
   "source" TEXT,
   "published" TEXT,
   "ended" TEXT,
   "author" TEXT,
   "retracted" TEXT,
   "origin" TEXT
);
CREATE TABLE "timeline" (
   "id" TEXT PRIMARY KEY,
   "kind" TEXT,
   "day" TEXT,
   "text" TEXT,
   "source" TEXT,
   "published" TEXT,
   "approximate" INTEGER,
   "author" TEXT,
   "retracted" TEXT,
   "origin" TEXT
);
CREATE TABLE "users" (
   "platform" TEXT,
   "user_id" TEXT,
   "board" TEXT,
   "pending" TEXT,
   "updated" TEXT,
   PRIMARY KEY ("platform", "user_id")
);
CREATE TABLE "subscriptions" (
   "platform" TEXT,
   "chat_id" TEXT,
   "board" TEXT,
   "chat_kind" TEXT,
   "user_id" TEXT,
   "active" INTEGER,
   "created" TEXT,
   "updated" TEXT,
   PRIMARY KEY ("platform", "chat_id", "board")
);
CREATE TABLE "audit" (
   "id" INTEGER PRIMARY KEY,
   "at" TEXT,
   "platform" TEXT,
   "user_id" TEXT,
   "action" TEXT,
   "target" TEXT,
   "before" TEXT,
   "after" TEXT
);
CREATE TABLE "question_log" (
   "id" INTEGER PRIMARY KEY,
   "at" TEXT,
   "day" TEXT,
   "platform" TEXT,
   "intent" TEXT,
   "board" TEXT,
   "text" TEXT
);
CREATE TABLE "meta" (
   "key" TEXT PRIMARY KEY,
   "value" TEXT
);
CREATE INDEX idx_subscriptions_board ON subscriptions(board, active);
CREATE INDEX idx_question_log_day ON question_log(day, intent);
CREATE TABLE admin_pending (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        action TEXT NOT NULL,            -- JSON: what /confirm will do
        created TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',  -- pending | done | cancelled | replaced
        result TEXT,
        done_at TEXT
    );
CREATE INDEX idx_admin_pending_user ON admin_pending(platform, user_id, id);
CREATE TABLE admin_changes (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,              -- status | service | endservice | event
        entry_id TEXT NOT NULL,
        board TEXT NOT NULL,
        summary TEXT NOT NULL,
        undone_at TEXT
    );
CREATE TABLE role_grants (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,            -- 'province' or 'staff'
    boards TEXT NOT NULL,          -- JSON list of board ids (staff)
    granted_by TEXT NOT NULL,      -- 'platform:user_id'
    at TEXT NOT NULL,
    PRIMARY KEY (platform, user_id)
);
INSERT INTO meta (key, value) VALUES ('schema_version', '1');
