import type { Stats } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import { countAll } from './repository.js';

export const shopStats = (db: Db): Promise<Stats> => countAll(db);
