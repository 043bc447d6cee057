import type { Category } from '@dogshop/contracts/shop';
import type { Db } from '../../db/client.js';
import { categoryToDto } from './mapper.js';
import { findActiveCategories } from './repository.js';

export async function listCategories(db: Db): Promise<Category[]> {
  return (await findActiveCategories(db)).map(categoryToDto);
}
