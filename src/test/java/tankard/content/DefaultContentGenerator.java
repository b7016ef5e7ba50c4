package tankard.content;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.LinearGradientPaint;
import java.awt.MultipleGradientPaint;
import java.awt.RadialGradientPaint;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.Arc2D;
import java.awt.geom.Ellipse2D;
import java.awt.geom.GeneralPath;
import java.awt.geom.Path2D;
import java.awt.geom.Point2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * Draws Tankard's default images (the sample character's card, the persona avatar, backgrounds) and embeds the
 * card JSON from {@code src/test/resources/content-generator/default_Wren.json}. The results are committed under
 * {@code src/main/resources/default-content/}; to regenerate them after a change, run {@code main} from the project
 * folder with the test classpath:
 * <pre>
 * mvn -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" tankard.content.DefaultContentGenerator
 * </pre>
 * Only shapes are drawn (no fonts), so the pictures do not depend on the machine's installed fonts.
 */
public final class DefaultContentGenerator {
    static final Path CARD_SOURCE = Path.of("src/test/resources/content-generator/default_Wren.json");
    static final Path OUT = Path.of("src/main/resources/default-content");

    private DefaultContentGenerator() {
    }

    public static void main(String[] args) throws IOException {
        String card = Files.readString(CARD_SOURCE, StandardCharsets.UTF_8);
        write("characters/default_Wren.png", withCard(png(innkeeper()), card));
        write("avatars/user-default.png", png(traveller()));
        write("backgrounds/tankard-dusk-road.png", png(duskRoad()));
        write("backgrounds/tankard-common-room.png", png(commonRoom()));
        write("backgrounds/__transparent.png", png(new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB)));
    }

    private static void write(String relative, byte[] bytes) throws IOException {
        Path target = OUT.resolve(relative);
        Files.createDirectories(target.getParent());
        Files.write(target, bytes);
        System.out.println(target + ": " + bytes.length + " bytes");
    }

    // ---- PNG chunks (as ST's src/character-card-parser.js, write)

    static byte[] png(BufferedImage image) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    /** A card as ST writes one: tEXt {@code chara} (as given) then {@code ccv3} (spec set to V3), before IEND. */
    static byte[] withCard(byte[] png, String cardJson) {
        ObjectNode v2 = (ObjectNode) JsJson.parse(cardJson);
        ObjectNode v3 = v2.deepCopy();
        v3.put("spec", "chara_card_v3");
        v3.put("spec_version", "3.0");
        List<Chunk> chunks = new ArrayList<>(chunks(png));
        Chunk end = chunks.remove(chunks.size() - 1);
        chunks.add(text("chara", JsJson.compact(v2)));
        chunks.add(text("ccv3", JsJson.compact(v3)));
        chunks.add(end);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.write(png, 0, 8);
            for (Chunk chunk : chunks) {
                out.writeInt(chunk.data.length);
                out.write(chunk.type.getBytes(StandardCharsets.ISO_8859_1));
                out.write(chunk.data);
                out.writeInt((int) crc(chunk));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Chunk text(String keyword, String json) {
        String base64 = Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
        return new Chunk("tEXt", (keyword + "\0" + base64).getBytes(StandardCharsets.ISO_8859_1));
    }

    record Chunk(String type, byte[] data) {
    }

    /** The chunks of a PNG, each CRC checked; throws on a malformed file. */
    static List<Chunk> chunks(byte[] png) {
        ByteBuffer in = ByteBuffer.wrap(png);
        byte[] signature = new byte[8];
        in.get(signature);
        if (!java.util.Arrays.equals(signature, new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'})) {
            throw new IllegalArgumentException("not a PNG");
        }
        List<Chunk> chunks = new ArrayList<>();
        while (true) {
            int length = in.getInt();
            byte[] type = new byte[4];
            in.get(type);
            byte[] data = new byte[length];
            in.get(data);
            Chunk chunk = new Chunk(new String(type, StandardCharsets.ISO_8859_1), data);
            if ((int) crc(chunk) != in.getInt()) {
                throw new IllegalArgumentException("bad CRC in " + chunk.type);
            }
            chunks.add(chunk);
            if (chunk.type.equals("IEND")) {
                return chunks;
            }
        }
    }

    /** keyword → decoded text of every tEXt chunk, in file order. */
    static Map<String, String> textChunks(byte[] png) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (Chunk chunk : chunks(png)) {
            if (chunk.type.equals("tEXt")) {
                String payload = new String(chunk.data, StandardCharsets.ISO_8859_1);
                int nul = payload.indexOf('\0');
                texts.put(payload.substring(0, nul), payload.substring(nul + 1));
            }
        }
        return texts;
    }

    private static long crc(Chunk chunk) {
        CRC32 crc = new CRC32();
        crc.update(chunk.type.getBytes(StandardCharsets.ISO_8859_1));
        crc.update(chunk.data);
        return crc.getValue();
    }

    // ---- drawing helpers

    private static Graphics2D canvas(BufferedImage image) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        return g;
    }

    private static Color rgb(int rgb) {
        return new Color(rgb);
    }

    private static Color rgba(int rgb, int alpha) {
        return new Color((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, alpha);
    }

    private static void fill(Graphics2D g, Shape shape, int rgb) {
        g.setColor(rgb(rgb));
        g.fill(shape);
    }

    private static Ellipse2D oval(double cx, double cy, double w, double h) {
        return new Ellipse2D.Double(cx - w / 2, cy - h / 2, w, h);
    }

    private static void vertical(Graphics2D g, int x, int y, int w, int h, float[] stops, Color[] colors) {
        g.setPaint(new LinearGradientPaint(x, y, x, y + h, stops, colors));
        g.fillRect(x, y, w, h);
    }

    private static void glow(Graphics2D g, double cx, double cy, double r, int rgb, int alpha) {
        g.setPaint(new RadialGradientPaint(new Point2D.Double(cx, cy), (float) r, new float[]{0f, 1f},
                new Color[]{rgba(rgb, alpha), rgba(rgb, 0)}, MultipleGradientPaint.CycleMethod.NO_CYCLE));
        g.fill(oval(cx, cy, 2 * r, 2 * r));
    }

    /** A hill line: the area under a smooth curve made of a few sine waves. */
    private static Shape ridge(int width, int height, double base, double[][] waves) {
        Path2D.Double path = new Path2D.Double();
        path.moveTo(0, height);
        for (int x = 0; x <= width; x += 8) {
            double y = base;
            for (double[] w : waves) {
                y += w[0] * Math.sin(x / w[1] + w[2]);
            }
            path.lineTo(x, y);
        }
        path.lineTo(width, height);
        path.closePath();
        return path;
    }

    // ---- the sample character: Wren, innkeeper of the Copper Tankard

    static BufferedImage innkeeper() {
        BufferedImage image = new BufferedImage(512, 768, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        vertical(g, 0, 0, 512, 768, new float[]{0f, 1f}, new Color[]{rgb(0x2e1d14), rgb(0x6b4127)});
        // Planks of the wall behind her.
        g.setColor(rgba(0x1a0f0a, 90));
        for (int x = 0; x < 512; x += 64) {
            g.fillRect(x, 0, 3, 768);
        }
        // A round window framing her head: night sky, a crescent moon, mullions.
        Ellipse2D window = oval(256, 250, 380, 380);
        g.setPaint(new GradientPaint(0, 60, rgb(0x1b2a4a), 0, 440, rgb(0x3f5d7d)));
        g.fill(window);
        fill(g, oval(150, 150, 56, 56), 0xf4ecc8);
        g.setPaint(new GradientPaint(0, 60, rgb(0x1b2a4a), 0, 440, rgb(0x3f5d7d)));
        g.fill(oval(164, 142, 52, 52));
        Random stars = new Random(7);
        g.setColor(rgba(0xffffff, 200));
        for (int i = 0; i < 30; i++) {
            double a = stars.nextDouble() * Math.PI * 2;
            double r = stars.nextDouble() * 170;
            g.fill(oval(256 + Math.cos(a) * r, 250 + Math.sin(a) * r, 3, 3));
        }
        g.setColor(rgb(0x3b2416));
        g.setStroke(new BasicStroke(12));
        g.drawLine(256, 62, 256, 438);
        g.drawLine(68, 250, 444, 250);
        g.setStroke(new BasicStroke(18));
        g.draw(window);
        // Shelves with mugs on both sides.
        for (int side : new int[]{0, 1}) {
            int x0 = side == 0 ? 0 : 400;
            fill(g, new java.awt.Rectangle(x0, 520, 112, 14), 0x2a180e);
            for (int i = 0; i < 2; i++) {
                int mx = x0 + 18 + i * 48;
                fill(g, new RoundRectangle2D.Double(mx, 478, 30, 42, 8, 8), i == side ? 0xb87333 : 0x8c6a4a);
                g.setColor(rgb(0x2a180e));
                g.setStroke(new BasicStroke(4));
                g.draw(new Arc2D.Double(mx + 22, 488, 18, 22, -90, 180, Arc2D.OPEN));
            }
        }
        // Hair behind the head.
        fill(g, oval(256, 318, 236, 280), 0x8e3b1d);
        // Body: shirt, apron, straps.
        GeneralPath shirt = new GeneralPath();
        shirt.moveTo(58, 768);
        shirt.curveTo(70, 560, 120, 480, 200, 462);
        shirt.lineTo(312, 462);
        shirt.curveTo(392, 480, 442, 560, 454, 768);
        shirt.closePath();
        fill(g, shirt, 0xeee3cc);
        fill(g, new java.awt.Rectangle(228, 380, 56, 96), 0xe8b892);
        GeneralPath neckline = new GeneralPath();
        neckline.moveTo(214, 462);
        neckline.lineTo(256, 530);
        neckline.lineTo(298, 462);
        neckline.closePath();
        fill(g, neckline, 0xe8b892);
        GeneralPath apron = new GeneralPath();
        apron.moveTo(168, 566);
        apron.lineTo(344, 566);
        apron.lineTo(372, 768);
        apron.lineTo(140, 768);
        apron.closePath();
        fill(g, apron, 0x4f6b3a);
        g.setColor(rgb(0x4f6b3a));
        g.setStroke(new BasicStroke(18, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.drawLine(184, 570, 196, 470);
        g.drawLine(328, 570, 316, 470);
        fill(g, new RoundRectangle2D.Double(212, 640, 88, 58, 14, 14), 0x435c31);
        // Sleeve shading.
        g.setColor(rgba(0x9c8b6c, 60));
        g.fill(oval(96, 700, 60, 200));
        g.fill(oval(416, 700, 60, 200));
        // Braid over her right shoulder.
        for (int i = 0; i < 8; i++) {
            fill(g, oval(178 - i * 3, 430 + i * 30, 46 - i, 40), i % 2 == 0 ? 0x9c4522 : 0x86361a);
        }
        fill(g, oval(154, 676, 22, 14), 0x4f6b3a);
        fill(g, new java.awt.Polygon(new int[]{144, 164, 176, 132}, new int[]{682, 682, 724, 724}, 4), 0x9c4522);
        // Head.
        fill(g, oval(176, 312, 26, 44), 0xe8b892);
        fill(g, oval(336, 312, 26, 44), 0xe8b892);
        fill(g, oval(256, 300, 164, 208), 0xf2c9a5);
        // Fringe swept to one side.
        GeneralPath fringe = new GeneralPath();
        fringe.moveTo(172, 300);
        fringe.curveTo(160, 190, 240, 170, 300, 188);
        fringe.curveTo(340, 200, 352, 250, 342, 300);
        fringe.curveTo(320, 240, 280, 222, 236, 232);
        fringe.curveTo(204, 240, 184, 262, 172, 300);
        fringe.closePath();
        fill(g, fringe, 0x9c4522);
        // Cheeks, freckles.
        g.setColor(rgba(0xe07a6a, 70));
        g.fill(oval(212, 345, 40, 22));
        g.fill(oval(300, 345, 40, 22));
        Random freckles = new Random(11);
        g.setColor(rgba(0xa0603a, 160));
        for (int i = 0; i < 22; i++) {
            double x = 208 + freckles.nextDouble() * 96;
            double y = 326 + freckles.nextDouble() * 26;
            g.fill(oval(x, y, 3.2, 3.2));
        }
        // Eyes.
        for (int side : new int[]{-1, 1}) {
            double ex = 256 + side * 36;
            fill(g, oval(ex, 306, 36, 20), 0xfbf6ef);
            fill(g, oval(ex + side * 2, 306, 16, 16), 0x6f8a6a);
            fill(g, oval(ex + side * 2, 306, 7, 7), 0x1d1a16);
            fill(g, oval(ex + side * 2 + 3, 302, 4, 4), 0xffffff);
            g.setColor(rgb(0x3b2015));
            g.setStroke(new BasicStroke(3.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            g.draw(new Arc2D.Double(ex - 19, 295, 38, 24, 10, 160, Arc2D.OPEN));
            g.setColor(rgb(0x7a3218));
            g.setStroke(new BasicStroke(5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            g.draw(new Arc2D.Double(ex - 22, 276, 44, 18, side < 0 ? 20 : 10, 150, Arc2D.OPEN));
        }
        // Nose and a lopsided smile.
        g.setColor(rgb(0xc98e6c));
        g.setStroke(new BasicStroke(3f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Arc2D.Double(248, 326, 16, 18, 200, 140, Arc2D.OPEN));
        g.setColor(rgb(0xa4493d));
        g.setStroke(new BasicStroke(4f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        GeneralPath smile = new GeneralPath();
        smile.moveTo(230, 366);
        smile.quadTo(258, 386, 286, 360);
        g.draw(smile);
        // The copper tankard she is holding up.
        int tx = 318;
        int ty = 560;
        g.setColor(rgb(0x7a4a22));
        g.setStroke(new BasicStroke(14, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Arc2D.Double(tx + 70, ty + 22, 56, 70, -90, 180, Arc2D.OPEN));
        g.setPaint(new GradientPaint(tx, 0, rgb(0xd98b4a), tx + 96, 0, rgb(0x8a4c20)));
        g.fill(new RoundRectangle2D.Double(tx, ty, 96, 118, 16, 16));
        g.setColor(rgba(0x5c3216, 200));
        g.fillRect(tx, ty + 16, 96, 8);
        g.fillRect(tx, ty + 94, 96, 8);
        g.setColor(rgba(0xffe0b0, 120));
        g.fillRect(tx + 14, ty + 28, 10, 62);
        fill(g, oval(tx + 48, ty + 2, 108, 30), 0xf6efd8);
        fill(g, oval(tx + 22, ty - 6, 40, 26), 0xfbf6e6);
        fill(g, oval(tx + 66, ty - 8, 46, 28), 0xfbf6e6);
        fill(g, oval(tx + 10, ty + 70, 50, 40), 0xe8b892);
        g.dispose();
        return image;
    }

    // ---- the default persona: a hooded traveller

    static BufferedImage traveller() {
        BufferedImage image = new BufferedImage(512, 768, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        vertical(g, 0, 0, 512, 768, new float[]{0f, 1f}, new Color[]{rgb(0x2f6f73), rgb(0x173a45)});
        glow(g, 256, 300, 260, 0x9fd8cf, 70);
        GeneralPath cloak = new GeneralPath();
        cloak.moveTo(40, 768);
        cloak.curveTo(60, 560, 140, 470, 256, 460);
        cloak.curveTo(372, 470, 452, 560, 472, 768);
        cloak.closePath();
        fill(g, cloak, 0x3a4a52);
        GeneralPath hood = new GeneralPath();
        hood.moveTo(256, 150);
        hood.curveTo(370, 150, 400, 300, 370, 480);
        hood.lineTo(142, 480);
        hood.curveTo(112, 300, 142, 150, 256, 150);
        hood.closePath();
        fill(g, hood, 0x46585f);
        fill(g, oval(256, 340, 150, 190), 0x1c2328);
        fill(g, oval(256, 356, 118, 150), 0xc99a78);
        // The hood's shadow over the brow.
        g.setPaint(new GradientPaint(0, 282, rgba(0x1c2328, 230), 0, 340, rgba(0x1c2328, 0)));
        g.fill(oval(256, 356, 118, 150));
        for (int side : new int[]{-1, 1}) {
            fill(g, oval(256 + side * 24, 352, 11, 11), 0x2a2220);
        }
        g.setColor(rgb(0x8a5a48));
        g.setStroke(new BasicStroke(3.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(new Arc2D.Double(238, 376, 36, 20, 200, 140, Arc2D.OPEN));
        fill(g, new java.awt.Rectangle(250, 470, 12, 298), 0x2b3a40);
        fill(g, oval(256, 600, 34, 34), 0xb88a3e);
        g.setColor(rgb(0x6b4a2b));
        g.setStroke(new BasicStroke(12, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.drawLine(420, 300, 440, 768);
        g.dispose();
        return image;
    }

    // ---- backgrounds

    static BufferedImage duskRoad() {
        int w = 1280;
        int h = 720;
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        g.setPaint(new LinearGradientPaint(0, 0, 0, 480, new float[]{0f, 0.55f, 1f},
                new Color[]{rgb(0x1d1b3a), rgb(0x6a3d6b), rgb(0xf29b5c)}));
        g.fillRect(0, 0, w, h);
        Random stars = new Random(3);
        for (int i = 0; i < 90; i++) {
            g.setColor(rgba(0xffffff, 80 + stars.nextInt(150)));
            double size = 1.5 + stars.nextDouble() * 2;
            g.fill(oval(stars.nextDouble() * w, stars.nextDouble() * 220, size, size));
        }
        glow(g, 900, 470, 220, 0xffc070, 140);
        fill(g, oval(900, 470, 130, 130), 0xffd58a);
        g.setColor(rgba(0xe9a0a0, 90));
        g.fill(new RoundRectangle2D.Double(140, 170, 380, 18, 18, 18));
        g.fill(new RoundRectangle2D.Double(700, 250, 300, 14, 14, 14));
        fill(g, ridge(w, h, 470, new double[][]{{28, 140, 0.5}, {16, 57, 1.3}}), 0x4b3457);
        fill(g, ridge(w, h, 520, new double[][]{{40, 210, 2.0}, {12, 70, 0.2}}), 0x33243d);
        // The inn on the middle hill, windows lit, smoke rising.
        int ix = 360;
        int iy = 470;
        GeneralPath inn = new GeneralPath();
        inn.moveTo(ix, iy);
        inn.lineTo(ix, iy - 60);
        inn.lineTo(ix + 70, iy - 110);
        inn.lineTo(ix + 140, iy - 60);
        inn.lineTo(ix + 140, iy);
        inn.closePath();
        fill(g, inn, 0x171019);
        fill(g, new java.awt.Rectangle(ix + 100, iy - 118, 16, 50), 0x171019);
        g.setColor(rgba(0xd9c6d8, 60));
        for (int i = 0; i < 5; i++) {
            g.fill(oval(ix + 112 + i * 14, iy - 132 - i * 22, 22 + i * 6, 16 + i * 4));
        }
        glow(g, ix + 70, iy - 36, 60, 0xffc15a, 90);
        fill(g, new java.awt.Rectangle(ix + 24, iy - 48, 18, 20), 0xffcf6b);
        fill(g, new java.awt.Rectangle(ix + 98, iy - 48, 18, 20), 0xffcf6b);
        fill(g, new java.awt.Rectangle(ix + 62, iy - 30, 16, 30), 0xe89a3c);
        // The near ground and the road winding up to the inn.
        fill(g, ridge(w, h, 590, new double[][]{{22, 160, 4.0}, {8, 45, 1.0}}), 0x221828);
        GeneralPath road = new GeneralPath();
        road.moveTo(560, h);
        road.curveTo(620, 640, 420, 600, 440, 520);
        road.lineTo(452, 520);
        road.curveTo(470, 600, 720, 640, 760, h);
        road.closePath();
        fill(g, road, 0x5b4450);
        // A signpost where the roads meet.
        g.setColor(rgb(0x120c14));
        g.setStroke(new BasicStroke(8));
        g.drawLine(860, 700, 860, 560);
        g.setStroke(new BasicStroke(14, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER));
        g.drawLine(820, 580, 905, 570);
        g.drawLine(900, 610, 825, 600);
        g.dispose();
        return image;
    }

    static BufferedImage commonRoom() {
        int w = 1280;
        int h = 720;
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        for (int x = 0, i = 0; x < w; x += 80, i++) {
            fill(g, new java.awt.Rectangle(x, 0, 80, 560), i % 2 == 0 ? 0x5a3a24 : 0x62402a);
            fill(g, new java.awt.Rectangle(x, 0, 3, 560), 0x3a2416);
        }
        fill(g, new java.awt.Rectangle(0, 40, w, 46), 0x2e1c12);
        for (int y = 560, i = 0; y < h; y += 40, i++) {
            fill(g, new java.awt.Rectangle(0, y, w, 40), i % 2 == 0 ? 0x3b271b : 0x432c1e);
        }
        // Window with the night outside.
        fill(g, new java.awt.Rectangle(890, 150, 230, 220), 0x2e1c12);
        g.setPaint(new GradientPaint(0, 164, rgb(0x14213d), 0, 356, rgb(0x2f4a6b)));
        g.fillRect(904, 164, 202, 192);
        fill(g, oval(1060, 205, 40, 40), 0xf1e9c6);
        g.setColor(rgb(0x2e1c12));
        g.setStroke(new BasicStroke(10));
        g.drawLine(1005, 164, 1005, 356);
        g.drawLine(904, 260, 1106, 260);
        // Stone fireplace with a fire and its glow on the wall.
        glow(g, 350, 470, 420, 0xff9a3c, 110);
        Random stones = new Random(5);
        for (int y = 230; y < 560; y += 36) {
            for (int x = 160 + (y / 36 % 2) * 20; x < 540; x += 60) {
                int grey = 0x70 + stones.nextInt(40);
                g.setColor(new Color(grey, grey - 6, grey - 12));
                g.fill(new RoundRectangle2D.Double(x, y, 56, 32, 10, 10));
            }
        }
        GeneralPath hearth = new GeneralPath();
        hearth.moveTo(240, 560);
        hearth.lineTo(240, 400);
        hearth.quadTo(350, 320, 460, 400);
        hearth.lineTo(460, 560);
        hearth.closePath();
        fill(g, hearth, 0x1a100b);
        fill(g, new java.awt.Rectangle(140, 214, 420, 22), 0x3a2416);
        glow(g, 350, 520, 120, 0xffb347, 200);
        int[][] flames = {{0xd9481c, 70, 120}, {0xf08a24, 52, 92}, {0xffd166, 30, 58}};
        for (int[] flame : flames) {
            GeneralPath f = new GeneralPath();
            f.moveTo(350 - flame[1], 550);
            f.quadTo(350 - flame[1] / 2.0, 550 - flame[2], 350, 550 - flame[2] * 1.3);
            f.quadTo(350 + flame[1] / 2.0, 550 - flame[2], 350 + flame[1], 550);
            f.closePath();
            fill(g, f, flame[0]);
        }
        fill(g, new RoundRectangle2D.Double(270, 545, 160, 16, 8, 8), 0x4a2c18);
        // A table in front with a candle and two tankards.
        fill(g, new RoundRectangle2D.Double(620, 520, 520, 40, 12, 12), 0x6d4428);
        fill(g, new java.awt.Rectangle(660, 560, 26, 160), 0x4e2f1b);
        fill(g, new java.awt.Rectangle(1074, 560, 26, 160), 0x4e2f1b);
        glow(g, 880, 440, 90, 0xffd38a, 150);
        fill(g, new java.awt.Rectangle(870, 456, 20, 64), 0xf3ead2);
        fill(g, oval(880, 446, 12, 22), 0xffd166);
        for (int x : new int[]{720, 980}) {
            g.setPaint(new GradientPaint(x, 0, rgb(0xd98b4a), x + 56, 0, rgb(0x8a4c20)));
            g.fill(new RoundRectangle2D.Double(x, 452, 56, 68, 10, 10));
            g.setColor(rgb(0x7a4a22));
            g.setStroke(new BasicStroke(8));
            g.draw(new Arc2D.Double(x + 42, 464, 30, 40, -90, 180, Arc2D.OPEN));
        }
        // A lantern hanging from the beam.
        g.setColor(rgb(0x1a100b));
        g.setStroke(new BasicStroke(3));
        g.drawLine(700, 86, 700, 150);
        glow(g, 700, 180, 110, 0xffc15a, 120);
        fill(g, new RoundRectangle2D.Double(682, 150, 36, 56, 8, 8), 0xffcf6b);
        g.setColor(rgb(0x1a100b));
        g.setStroke(new BasicStroke(4));
        g.draw(new RoundRectangle2D.Double(682, 150, 36, 56, 8, 8));
        g.dispose();
        return image;
    }
}
