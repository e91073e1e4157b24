import type { CheckContext } from '../core/types.js';
import type { HostInventory } from '../host/types.js';

/** The host inventory, asked once per run: host.model, net.host-nic and the facts share it. */
export function hostInventory(ctx: CheckContext): Promise<HostInventory> {
  return ctx.shared('host.inventory', () => ctx.host.inventory());
}
