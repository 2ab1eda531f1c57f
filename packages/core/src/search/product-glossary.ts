// What well-known products and services are, in the words a user describes them with when they do not name them
// ("the Japanese business chat app" for Chatwork). General knowledge, not tuned to any query; a skill whose name or
// description names a product is indexed with these words in its headings field (a moderate weight).

/** Product name (lowercase, as written in skill names and descriptions) -> words describing what it is. */
export const PRODUCT_GLOSSARY: Readonly<Record<string, string>> = {
  "21risk": "risk audit inspection checklist safety compliance incidents actions",
  "2chat": "whatsapp business messaging shared number customers chat",
  ably: "realtime pub sub messaging websocket channels push",
  abstract: "api validation email phone ip geolocation exchange rates",
  abuseipdb: "ip address abuse reports blacklist reputation malicious confidence sysadmins",
  abyssale: "banner image generation marketing creatives templates ads",
  accelo: "professional services crm projects billing tickets clients",
  accredible: "digital certificates badges credentials courses graduates",
  ahrefs: "seo backlinks keywords rankings domain traffic",
  airtable: "spreadsheet database base tables records",
  apify: "web scraping crawler actors datasets extraction",
  apollo: "sales leads prospecting contacts enrichment outreach b2b",
  asana: "project management tasks team work tracking",
  ashby: "recruiting hiring applicant tracking candidates interviews jobs",
  attio: "crm customer relationships contacts companies pipeline",
  "capsule crm": "crm contacts sales pipeline small business",
  chatwork: "japanese business chat messaging team rooms tasks",
  clockify: "time tracking timesheets hours timer",
  cloudinary: "image video media hosting transformations cdn uploads",
  "control d": "dns filtering blocking network privacy ad blocker",
  datadog: "monitoring observability metrics logs apm dashboards alerts",
  figma: "design tool ui mockups prototypes frames",
  github: "git repository pull requests issues code hosting",
  hubspot: "crm marketing sales contacts deals email campaigns",
  jira: "issue tracker tickets sprints agile project management",
  linear: "issue tracker tickets sprints project management engineering",
  mailchimp: "email marketing newsletters campaigns audience",
  notion: "notes wiki documents workspace pages knowledge base",
  "pdf api": "pdf generation conversion documents",
  playwright: "browser automation end to end testing web pages",
  qdrant: "vector database embeddings similarity search collections",
  safetyculture: "inspection checklist audit safety site issues corrective actions",
  salesforce: "crm sales opportunities accounts leads enterprise",
  sentry: "error tracking crash reports exceptions monitoring",
  shopify: "ecommerce online store products orders",
  slack: "team chat messaging channels workspace",
  stripe: "payments billing subscriptions invoices checkout",
  supabase: "postgres backend database auth storage",
  trello: "kanban boards cards lists tasks",
  twilio: "sms text messages phone calls voice",
  vercel: "web hosting deployment frontend nextjs preview",
  zendesk: "customer support help desk tickets",
  zeplin: "design handoff styleguide colors text styles screens developers",
};

const KEYS = Object.keys(PRODUCT_GLOSSARY).sort((a, b) => b.length - a.length);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const PRODUCT_PATTERN = new RegExp(`(?<![a-z0-9])(${KEYS.map((key) => escape(key).replace(/ /g, "[ -]?")).join("|")})(?![a-z0-9])`, "g");

/** The describing words of every glossary product named in `text` (name and description of a skill), or "". */
export function productDescriptions(text: string): string {
  const found = new Set<string>();
  for (const match of text.toLowerCase().matchAll(PRODUCT_PATTERN)) {
    const key = KEYS.find((candidate) => candidate.replace(/ /g, "") === match[1]!.replace(/[ -]/g, ""));
    if (key) found.add(key);
  }
  return [...found].map((key) => PRODUCT_GLOSSARY[key]).join("\n");
}
