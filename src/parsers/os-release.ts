export interface OsRelease {
  id: string | undefined;
  idLike: string[];
  name: string | undefined;
  versionId: string | undefined;
  prettyName: string | undefined;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if ((trimmed.startsWith('"') && trimmed.endsWith('"')) || (trimmed.startsWith("'") && trimmed.endsWith("'"))) {
    return trimmed.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  }
  return trimmed;
}

/** os-release(5): KEY=value lines, values optionally quoted. Never throws. */
export function parseOsRelease(text: string): OsRelease {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match) fields.set(match[1]!, unquote(match[2]!));
  }
  return {
    id: fields.get('ID')?.toLowerCase(),
    idLike: (fields.get('ID_LIKE') ?? '').toLowerCase().split(/\s+/).filter(Boolean),
    name: fields.get('NAME'),
    versionId: fields.get('VERSION_ID'),
    prettyName: fields.get('PRETTY_NAME'),
  };
}

export type PackageFamily = 'deb' | 'rpm' | 'unknown';

/** Debian/Ubuntu/Kylin install with apt, openEuler/CentOS/EulerOS with yum or dnf. */
export function packageFamily(os: OsRelease): PackageFamily {
  const ids = [os.id ?? '', ...os.idLike];
  if (ids.some((id) => ['debian', 'ubuntu', 'kylin', 'uos', 'deepin'].includes(id))) return 'deb';
  if (ids.some((id) => ['openeuler', 'euleros', 'centos', 'rhel', 'fedora', 'anolis', 'ctyunos', 'bclinux'].includes(id))) return 'rpm';
  return 'unknown';
}
