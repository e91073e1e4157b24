/*
 * The rule that decides whether a value is a secret, written once. Every place that hides
 * secrets (src/util/redact.ts, which every report, error document, log line and snapshot goes
 * through, and the checks that quote a launch script) asks `isSecret` about a value and what it
 * was found with: the name it is bound to, or the command whose flag it is. The tables below are
 * the knowledge the rule uses, each row with its source; docs/security.md prints them.
 */

/** Parts of a name that mark a secret wherever they stand in it. */
const SECRET_PART = /pass(word|wd|phrase)|secret|credential|api_?key|access_?key|private_?key|cookie|webhook/;
/**
 * Words that mark a secret when the name ends with them: HF_TOKEN, API_KEY, MYSQL_PWD, DB_PW,
 * X_CREDS, GITLAB_PAT, HUAWEICLOUD_SDK_SK (Huawei Cloud's secret access key), SESSION.
 */
const SECRET_LAST_WORDS = new Set(['token', 'key', 'pwd', 'pw', 'pass', 'auth', 'authorization', 'session', 'sessionid', 'signature', 'sig', 'jwt', 'bearer', 'creds', 'cred', 'pat', 'sk']);
/** Variables that carry secrets inside their value (JVM system properties, a whole kubeconfig, sshpass -e's password, a CI registry login). */
const SECRET_VARIABLES = new Set(['KUBECONFIG_DATA', 'JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS', 'MAVEN_OPTS', 'GRADLE_OPTS', 'SSHPASS', 'DOCKER_AUTH_CONFIG']);
/** The shell's working directories: named like a password variable, never one. */
const NOT_SECRET = new Set(['PWD', 'OLDPWD']);
/** A last word that only numbers a name (GITLAB_CI_JOB_JWT_V2, API_KEY_2): the word before it says what it is. */
const VERSION_WORD = /^v?\d+$/;

/** "hfToken", "HF_TOKEN", "--hf-token", "hf.token", "X-Api-Key" -> ["hf", "token"] */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether a variable, flag, header, JSON key or query parameter name says that its value is a
 * secret. Counts are not secrets: "num_speculative_tokens" and "--max-num-batched-tokens" keep
 * their values; neither do paths to key files (--ssl-keyfile).
 */
function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, '');
  if (bare === '' || NOT_SECRET.has(bare.toUpperCase())) return false;
  // "key" alone, lower-case, is the word of data formats, not a credential: a taint's or a
  // selector's `key: qprep.io/not-ready`, a validation message's `Unrecognized key: "hosts"`.
  // A variable named KEY keeps the rule (environment variables are upper-case), and a key's
  // value that has the form of one (a PEM block, a token) is hidden by its form wherever it is.
  if (bare === 'key') return false;
  if (SECRET_VARIABLES.has(bare.toUpperCase())) return true;
  const words = wordsOf(bare);
  if (SECRET_PART.test(words.join('_'))) return true;
  while (words.length > 1 && VERSION_WORD.test(words[words.length - 1]!)) words.pop();
  const last = words[words.length - 1];
  return last !== undefined && (SECRET_LAST_WORDS.has(last) || last.endsWith('token') || last.endsWith('pwd'));
}

/** A token that says what it is by its form, wherever it stands. */
export interface TokenFormat {
  /** who issues it */
  issuer: string;
  what: string;
  /** the token, as a regular expression source matching it whole (no flags, no anchors) */
  pattern: string;
  source: string;
}

const GITLEAKS = 'https://github.com/gitleaks/gitleaks/blob/master/cmd/generate/config/rules';

/** The token formats of the forges and clouds that put a recognisable prefix on their secrets. */
export const TOKEN_FORMATS: readonly TokenFormat[] = [
  {
    issuer: 'GitHub',
    what: 'personal access, OAuth, user-to-server, server-to-server and refresh tokens',
    pattern: 'gh[pousr]_[A-Za-z0-9]{36}',
    source: `https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats; ${GITLEAKS}/github.go`,
  },
  {
    issuer: 'GitHub',
    what: 'fine-grained personal access token',
    pattern: 'github_pat_[A-Za-z0-9_]{82}',
    source: `https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats; ${GITLEAKS}/github.go`,
  },
  {
    issuer: 'GitLab',
    what: 'personal, project and group access, deploy, runner, trigger, feed, SCIM, incoming mail, agent and OAuth application tokens',
    pattern: 'gl(?:pat|dt|rt|ptt|ft|soat|imt|ffct|oas|agent)-[A-Za-z0-9_.-]{20,}',
    source: `https://docs.gitlab.com/ee/security/tokens/index.html#token-prefixes; ${GITLEAKS}/gitlab.go`,
  },
  {
    issuer: 'GitLab',
    what: 'CI/CD job token',
    pattern: 'glcbt-[A-Za-z0-9]{1,5}_[A-Za-z0-9_-]{20}',
    source: `https://docs.gitlab.com/ee/security/tokens/index.html#token-prefixes; ${GITLEAKS}/gitlab.go`,
  },
  {
    issuer: 'GitLab',
    what: 'runner registration token',
    pattern: 'GR1348941[A-Za-z0-9_-]{20}',
    source: `https://docs.gitlab.com/ee/security/tokens/index.html#token-prefixes; ${GITLEAKS}/gitlab.go`,
  },
  {
    issuer: 'Hugging Face',
    what: 'user access token, organization API token',
    pattern: '(?:hf_|api_org_)[A-Za-z]{34}',
    source: `https://huggingface.co/docs/hub/security-tokens; ${GITLEAKS}/huggingface.go`,
  },
  {
    issuer: 'AWS',
    what: 'access key id (long-term, STS, bearer and context-specific)',
    pattern: '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}',
    source: `https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids; ${GITLEAKS}/aws.go`,
  },
  {
    issuer: 'Slack',
    what: 'bot, user, app-level, configuration and legacy tokens',
    pattern: '(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,}',
    source: `https://api.slack.com/authentication/token-types; ${GITLEAKS}/slack.go`,
  },
  {
    issuer: 'OpenAI-style APIs',
    what: 'secret API keys of the form OpenAI gives them (sk-, sk-proj-), Anthropic (sk-ant-) and the OpenAI-compatible services that copy it',
    pattern: 'sk-[A-Za-z0-9_-]{20,}',
    source: `https://platform.openai.com/docs/api-reference/authentication; ${GITLEAKS}/openai.go; ${GITLEAKS}/anthropic.go`,
  },
  {
    issuer: 'Google',
    what: 'API key',
    pattern: 'AIza[A-Za-z0-9_-]{35}',
    source: `https://cloud.google.com/docs/authentication/api-keys; ${GITLEAKS}/gcp.go`,
  },
  {
    issuer: 'Azure',
    what: 'Microsoft Entra (Azure AD) client secret',
    pattern: '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}',
    source: `https://learn.microsoft.com/en-us/microsoft-365/compliance/sit-defn-azure-ad-client-secret; ${GITLEAKS}/azure.go`,
  },
  {
    issuer: 'npm',
    what: 'access token',
    pattern: 'npm_[A-Za-z0-9]{36}',
    source: `https://github.blog/2021-09-23-announcing-npms-new-access-token-format/; ${GITLEAKS}/npm.go`,
  },
  {
    issuer: 'PyPI',
    what: 'API token',
    pattern: 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}',
    source: `https://pypi.org/help/#apitoken; ${GITLEAKS}/pypi.go`,
  },
  {
    issuer: 'any issuer',
    what: 'JSON Web Token (a Kubernetes service account token, a CI job JWT such as GITLAB_CI_JOB_JWT_V2)',
    pattern: 'eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}',
    source: `https://www.rfc-editor.org/rfc/rfc7519#section-3.1 (a header and claims of base64url JSON, "{\\"" encoding as eyJ); ${GITLEAKS}/jwt.go`,
  },
  {
    issuer: 'any issuer',
    what: 'PEM private key block',
    pattern: '-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----[\\s\\S]{1,20000}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----',
    source: 'https://www.rfc-editor.org/rfc/rfc7468#section-10; https://www.rfc-editor.org/rfc/rfc7468#section-11',
  },
];

/** A command whose flags take a secret, where the flag's name does not say so (-p, -u, -a, -w). */
export interface CredentialFlags {
  /** the program, as it is called (a path to it counts too) */
  commands: readonly string[];
  /** a word that must come before the flag in the same command: docker login -p, never docker run -p */
  subcommand?: string;
  /** flags followed by the secret, as the next word or after "=" */
  flags: readonly string[];
  /** short flags with the secret glued to them (-pPASSWORD); a glued-only flag with a space after it prompts instead */
  glued?: readonly string[];
  /**
   * a wrapper: its options end at the command it runs (sshpass -p PW ssh -p 22 host: the second
   * -p is ssh's port); these are its options that take a value
   */
  wraps?: readonly string[];
  source: string;
}

/** The credential flags of common command-line tools; a flag named like a secret (--password) needs no row. */
export const CREDENTIAL_FLAGS: readonly CredentialFlags[] = [
  { commands: ['curl'], flags: ['-u', '--user', '-U', '--proxy-user', '-b'], glued: ['-u', '-U'], source: 'https://curl.se/docs/manpage.html#-u' },
  { commands: ['sshpass'], flags: ['-p'], glued: ['-p'], wraps: ['-p', '-f', '-d', '-P'], source: 'https://linux.die.net/man/1/sshpass' },
  {
    commands: ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlshow', 'mysqlcheck', 'mariadb', 'mariadb-dump', 'mariadb-admin'],
    flags: [],
    glued: ['-p'],
    source: 'https://dev.mysql.com/doc/refman/8.4/en/connection-options.html#option_general_password',
  },
  { commands: ['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'oras', 'helm'], subcommand: 'login', flags: ['-p'], source: 'https://docs.docker.com/reference/cli/docker/login/' },
  { commands: ['redis-cli'], flags: ['-a'], source: 'https://redis.io/docs/latest/develop/tools/cli/' },
  { commands: ['ipmitool'], flags: ['-P'], source: 'https://linux.die.net/man/1/ipmitool' },
  { commands: ['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldapwhoami', 'ldappasswd', 'ldapcompare', 'ldapmodrdn'], flags: ['-w'], source: 'https://www.openldap.org/software/man.cgi?query=ldapsearch' },
  { commands: ['smbclient'], flags: ['-U', '--user'], source: 'https://www.samba.org/samba/docs/current/man-html/smbclient.1.html' },
  { commands: ['sqlcmd'], flags: ['-P'], source: 'https://learn.microsoft.com/en-us/sql/tools/sqlcmd/sqlcmd-utility' },
  { commands: ['mongosh', 'mongo', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport'], flags: ['-p'], source: 'https://www.mongodb.com/docs/mongodb-shell/reference/options/' },
  { commands: ['zip', 'unzip'], flags: ['-P'], source: 'https://linux.die.net/man/1/zip' },
  { commands: ['7z', '7za', '7zz'], flags: [], glued: ['-p'], source: 'https://linux.die.net/man/1/7z' },
  { commands: ['openssl'], flags: ['-passin', '-passout', '-pass', '-k'], source: 'https://docs.openssl.org/master/man1/openssl-passphrase-options/' },
  { commands: ['ssh-keygen'], flags: ['-N', '-P'], source: 'https://man.openbsd.org/ssh-keygen' },
];

/** The command line a value was found on: the program, the words before the flag, the flag. */
export interface FlagContext {
  /** the program, without its directory */
  command: string;
  /** the words between the program and the flag */
  before: readonly string[];
  /** the flag as written, without its value */
  flag: string;
  /** the value was glued to a short flag (-pPASSWORD) */
  glued: boolean;
}

/** Whether the words before a wrapper's flag are all its own options: no operand (the command it runs) came first. */
function beforeOperands(before: readonly string[], valued: readonly string[]): boolean {
  for (let i = 0; i < before.length; i += valued.includes(before[i]!) ? 2 : 1) if (!before[i]!.startsWith('-')) return false;
  return true;
}

function isCredentialFlag(context: FlagContext): boolean {
  return CREDENTIAL_FLAGS.some(
    (row) =>
      row.commands.includes(context.command) &&
      (row.subcommand === undefined || context.before.includes(row.subcommand)) &&
      (row.wraps === undefined || beforeOperands(context.before, row.wraps)) &&
      (context.glued ? (row.glued ?? []).includes(context.flag) : row.flags.includes(context.flag)),
  );
}

const WHOLE_TOKEN = new RegExp(`^(?:${TOKEN_FORMATS.map((f) => f.pattern).join('|')})$`);

/** The value has the form of a token of TOKEN_FORMATS (its quotes aside); an OpenAI-style key also has a digit. */
function isTokenShaped(value: string): boolean {
  const bare = /^(["'])([\s\S]*)\1$/.exec(value)?.[2] ?? value;
  if (!WHOLE_TOKEN.test(bare)) return false;
  // "sk-" starts kebab-case words too (sk-learn-examples-of-...): a key is random, so it has digits
  return !bare.startsWith('sk-') || /\d/.test(bare);
}

/** What a value was found with: nothing, the name it is bound to, or the flag of a command it follows. */
export interface SecretCandidate {
  value: string;
  /** a variable, flag, header, JSON key or query parameter name */
  name?: string;
  /** the command line, when the value follows one of its flags */
  flag?: FlagContext;
}

/**
 * Whether a value is a secret: its name says so (HF_TOKEN, --api-key, X-Api-Key, "password"),
 * it follows a credential flag of a command that takes one (curl -u, sshpass -p, mysql -pPW,
 * docker login -p), or it has the form of a known token (ghp_, glpat-, hf_, AKIA, xoxb-, sk-,
 * AIza, a JWT, a private key). An empty value hides nothing.
 */
export function isSecret(candidate: SecretCandidate): boolean {
  if (candidate.value === '') return false;
  if (candidate.name !== undefined && isSecretName(candidate.name)) return true;
  if (candidate.flag !== undefined && isCredentialFlag(candidate.flag)) return true;
  return isTokenShaped(candidate.value);
}

/**
 * Every place in a text where a known token stands, as a global regular expression: a token is
 * a whole word (nothing of a token's alphabet right before or after it). For scanning; each
 * match is judged by isSecret.
 */
export function tokenPattern(): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_~.-])(?:${TOKEN_FORMATS.map((f) => f.pattern).join('|')})(?![A-Za-z0-9_~-])`, 'g');
}

/** The programs of CREDENTIAL_FLAGS: where a scan of a text looks for credential flags. */
export function credentialCommands(): string[] {
  return [...new Set(CREDENTIAL_FLAGS.flatMap((row) => row.commands))];
}
