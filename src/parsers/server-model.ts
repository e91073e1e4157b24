/**
 * The Atlas server generation a DMI product name (/sys/class/dmi/id/product_name, dmidecode's
 * "Product Name") names. Huawei writes short forms there: "A800I A2" (Atlas 800I A2),
 * "A800 9000 A2" (Atlas 800T A2, model 9000); the marketing names ("Atlas 800T A3",
 * "Atlas 900 A3 SuperPoD", "A200T A3 Box8") follow the same pattern: a 200T/300T/800/900 server
 * and a generation token A2 or A3. Anything else (a TaiShan, a partner's server, a 300I Duo
 * host) is not recognized: the name alone does not say which NPUs it carries.
 */
export interface AtlasServer {
  family: 'a2' | 'a3';
  /** the product name as DMI gives it */
  product: string;
}

const ATLAS_SERVER = /^(?:atlas\s*|a)(?:200t|800[ti]?|900)\b/i;
const GENERATION = /\bA([23])\b/i;

export function atlasServer(productName: string): AtlasServer | undefined {
  const product = productName.trim().replace(/\s+/g, ' ');
  if (!ATLAS_SERVER.test(product)) return undefined;
  const generation = GENERATION.exec(product.replace(ATLAS_SERVER, ''));
  if (!generation) return undefined;
  return { family: generation[1] === '2' ? 'a2' : 'a3', product };
}
