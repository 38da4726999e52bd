/* Labels of ambiguous function names (pft_names_): two images holding
 * symbols of one name.  Expected labels are the rule of pft.h (section
 * views) applied by hand to the symbol listings written here; the file
 * form ("name (file.c)") needs DWARF and is checked on a real program by
 * tests/cli/test_views_names.sh. */
#include "ptunit.h"

#include "pft.h"

#include <unistd.h>

static char dir[] = "/tmp/pft_names_XXXXXX";

/* An image with the symbols of System.map text @map. */
static struct pft_image *image_of(const char *name, const char *map)
{
	char path[256];
	struct pft_image *img = pft_image_alloc(NULL);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	PTU_CHECK(f != NULL);
	if (f) {
		fputs(map, f);
		fclose(f);
	}
	PTU_CHECK(pft_image_add_symbols(img, path, 0, NULL) > 0);
	unlink(path);
	return img;
}

/* Image a and b both have a local "helper", at two addresses, and "common"
 * at one address (the same function in both memories); "data" is an
 * object of b, not a function. */
static const char map_a[] = "00010000 T main\n"
			    "00010100 t helper\n"
			    "00010200 T common\n";
static const char map_b[] = "00020000 T other\n"
			    "00020100 t helper\n"
			    "00010200 T common\n"
			    "00020200 t main_loop\n"
			    "00030000 D main\n";

static struct pft_names *names_of(struct pft_image *const *images, size_t n)
{
	struct pft_names_config cfg = { .size = sizeof(cfg), .images = images, .nimages = n };
	int err = 1;
	struct pft_names *names = pft_names_alloc(&cfg, &err);

	PTU_CHECK(names != NULL);
	PTU_EQ(err, 0);
	return names;
}

static void two_images(void)
{
	struct pft_image *images[2] = { image_of("a", map_a), image_of("b", map_b) };
	struct pft_names *names = names_of(images, 2);
	const char *helper = "helper", *common = "common", *main_name = "main";

	PTU_STREQ(pft_names_label(names, helper, 0x10100), "helper@0x00010100");
	PTU_STREQ(pft_names_label(names, helper, 0x20100), "helper@0x00020100");
	/* Unambiguous: the name itself, the caller's pointer. */
	PTU_CHECK(pft_names_label(names, common, 0x10200) == common);
	PTU_CHECK(pft_names_label(names, main_name, 0x10000) == main_name);
	/* A start no function of that name has: not one of them. */
	PTU_CHECK(pft_names_label(names, helper, 0x10104) == helper);
	/* "main" is also data in b: a data symbol is not a function. */
	PTU_CHECK(pft_names_label(names, main_name, 0x30000) == main_name);
	pft_names_free(names);

	/* One image alone: its one helper is not ambiguous. */
	names = names_of(images, 1);
	PTU_CHECK(pft_names_label(names, helper, 0x10100) == helper);
	pft_names_free(names);
	/* A NULL image is skipped. */
	struct pft_image *with_null[3] = { images[0], NULL, images[1] };
	names = names_of(with_null, 3);
	PTU_STREQ(pft_names_label(names, helper, 0x20100), "helper@0x00020100");
	pft_names_free(names);
	pft_image_free(images[0]);
	pft_image_free(images[1]);
}

static void errors(void)
{
	struct pft_image *img = image_of("a", map_a);
	struct pft_names_config cfg = { .size = sizeof(cfg), .images = &img, .nimages = 1 };
	int err = 0;

	PTU_CHECK(pft_names_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	cfg.size = offsetof(struct pft_names_config, reserved) - 1;
	err = 0;
	PTU_CHECK(pft_names_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	cfg.size = sizeof(cfg);
	cfg.images = NULL;
	err = 0;
	PTU_CHECK(pft_names_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	/* No lines, no images: nothing is ambiguous. */
	cfg.nimages = 0;
	struct pft_names *names = pft_names_alloc(&cfg, NULL);
	PTU_CHECK(names != NULL);
	PTU_STREQ(pft_names_label(names, "helper", 0x10100), "helper");
	pft_names_free(names);
	/* The first layout (up to reserved) is accepted. */
	cfg = (struct pft_names_config){ .size = offsetof(struct pft_names_config, reserved),
					 .images = &img, .nimages = 1 };
	names = pft_names_alloc(&cfg, NULL);
	PTU_CHECK(names != NULL);
	pft_names_free(names);
	PTU_STREQ(pft_names_label(NULL, "x", 0), "x");
	PTU_CHECK(pft_names_label(names = NULL, NULL, 0) == NULL);
	pft_names_free(NULL);
	pft_image_free(img);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	PTU_RUN(two_images);
	PTU_RUN(errors);
	rmdir(dir);
	PTU_MAIN_END();
}
