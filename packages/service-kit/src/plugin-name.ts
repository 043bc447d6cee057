const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * The plugin, carrying `name` (its function's name unless given) as Fastify's display name: the
 * name Fastify would end up with anyway. Without one, Fastify first looks for the plugin among
 * the exports of every module in `require.cache`, which under Jest is its whole module registry:
 * about 30 ms a plugin, most of a second for each app a test builds.
 */
export function named<P extends object>(plugin: P, name = (plugin as { name?: string }).name): P {
  if (name) Object.defineProperty(plugin, DISPLAY_NAME, { value: name, configurable: true });
  return plugin;
}
