package slot

// CRC16 returns the CRC16-CCITT (XMODEM) checksum of b: polynomial 0x1021,
// initial value 0, no reflection, no final XOR. It is the checksum that Redis
// Cluster uses for key slots; CRC16("123456789") is 0x31C3.
//
// It reads 16 bytes a step (slicing-by-16): sixteen independent table lookups
// instead of a chain of sixteen dependent ones. The running CRC is folded into
// the first two bytes of each step, which is exact for a non-reflected CRC16
// with initial value 0. The tail of fewer than 16 bytes is done the same way.
func CRC16[T ~string | ~[]byte](b T) uint16 {
	crc := uint16(0)
	for len(b) >= 16 {
		_ = b[15]
		crc = tables[15][b[0]^byte(crc>>8)] ^ tables[14][b[1]^byte(crc)] ^
			tables[13][b[2]] ^ tables[12][b[3]] ^
			tables[11][b[4]] ^ tables[10][b[5]] ^
			tables[9][b[6]] ^ tables[8][b[7]] ^
			tables[7][b[8]] ^ tables[6][b[9]] ^
			tables[5][b[10]] ^ tables[4][b[11]] ^
			tables[3][b[12]] ^ tables[2][b[13]] ^
			tables[1][b[14]] ^ tables[0][b[15]]
		b = b[16:]
	}
	if len(b) >= 8 {
		_ = b[7]
		crc = tables[7][b[0]^byte(crc>>8)] ^ tables[6][b[1]^byte(crc)] ^
			tables[5][b[2]] ^ tables[4][b[3]] ^
			tables[3][b[4]] ^ tables[2][b[5]] ^
			tables[1][b[6]] ^ tables[0][b[7]]
		b = b[8:]
	}
	// 0 to 7 bytes left: the CRC folds into the first two, and each byte i is
	// followed by len(b)-1-i zero bytes.
	hi, lo := byte(crc>>8), byte(crc)
	switch len(b) {
	case 0:
		return crc
	case 1:
		return crc<<8 ^ tables[0][b[0]^hi]
	case 2:
		return tables[1][b[0]^hi] ^ tables[0][b[1]^lo]
	case 3:
		return tables[2][b[0]^hi] ^ tables[1][b[1]^lo] ^ tables[0][b[2]]
	case 4:
		return tables[3][b[0]^hi] ^ tables[2][b[1]^lo] ^ tables[1][b[2]] ^ tables[0][b[3]]
	case 5:
		return tables[4][b[0]^hi] ^ tables[3][b[1]^lo] ^ tables[2][b[2]] ^ tables[1][b[3]] ^
			tables[0][b[4]]
	case 6:
		return tables[5][b[0]^hi] ^ tables[4][b[1]^lo] ^ tables[3][b[2]] ^ tables[2][b[3]] ^
			tables[1][b[4]] ^ tables[0][b[5]]
	default: // 7
		return tables[6][b[0]^hi] ^ tables[5][b[1]^lo] ^ tables[4][b[2]] ^ tables[3][b[3]] ^
			tables[2][b[4]] ^ tables[1][b[5]] ^ tables[0][b[6]]
	}
}

// tables[k][x] is the CRC of byte x followed by k zero bytes.
var tables = func() (t [16][256]uint16) {
	for x := range 256 {
		crc := uint16(x) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
		t[0][x] = crc
	}
	for k := 1; k < len(t); k++ {
		for x := range 256 {
			prev := t[k-1][x]
			t[k][x] = prev<<8 ^ t[0][byte(prev>>8)]
		}
	}
	return t
}()
